import type { StorageConfig } from './storage.js'

/** Where a configured database lives, for a message: the file, or PostgreSQL's host and database (never a password). */
function place(config: StorageConfig): string {
  if (config.kind === 'sqlite') return `the SQLite database ${config.filename}`
  try {
    const url = new URL(config.url)
    return `PostgreSQL at ${url.host}${url.pathname}`
  } catch {
    return 'PostgreSQL'
  }
}

/**
 * The database could not be opened at start-up (a full disk, a file that cannot be
 * created, a server that refuses): its message is one line naming the place and the
 * cause, what an operator needs, rather than a stack.
 */
export class StorageOpenError extends Error {
  override name = 'StorageOpenError'
  constructor(config: StorageConfig, cause: unknown) {
    const code = (cause as { code?: unknown })?.code
    const why = cause instanceof Error ? cause.message : String(cause)
    super(`Cannot open ${place(config)}: ${why}${typeof code === 'string' ? ` (${code})` : ''}`, {
      cause,
    })
  }
}
