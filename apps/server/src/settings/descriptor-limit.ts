import { readFileSync } from 'node:fs'

/**
 * Descriptors the process keeps for everything but client connections: Node itself, the
 * log, the SQLite writer thread and its files (about 30 when idle), and room for what
 * opens now and then: a docs file being sent, a Redis or tracing connection, DNS.
 */
export const RESERVED_DESCRIPTORS = 64

/** What is assumed where the limit cannot be read (no /proc): the usual soft limit. */
const ASSUMED_LIMIT = 1024

/**
 * The process's open-file limit (RLIMIT_NOFILE, soft, which Node raises to the hard one
 * at start-up), from /proc/self/limits; undefined where that cannot be read.
 */
export function descriptorLimit(limits = '/proc/self/limits'): number | undefined {
  try {
    const line = /^Max open files\s+(\d+|unlimited)/m.exec(readFileSync(limits, 'utf8'))
    if (line === null) return undefined
    return line[1] === 'unlimited' ? Number.MAX_SAFE_INTEGER : Number(line[1])
  } catch {
    return undefined
  }
}

/**
 * MAX_CONNECTIONS when it is not set: the descriptor limit less what the process needs
 * besides its clients (RESERVED_DESCRIPTORS, and each PostgreSQL connection it may open),
 * so that a flood of connections meets the cap, not EMFILE. At least 1.
 */
export function defaultMaxConnections(
  databaseConnections: number,
  limit: number = descriptorLimit() ?? ASSUMED_LIMIT,
): number {
  return Math.max(1, limit - RESERVED_DESCRIPTORS - databaseConnections)
}
