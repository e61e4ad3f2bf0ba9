import { closeSync, fsyncSync, openSync, rmSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import pg from 'pg'
import type { BatchedLimit, CommitCost, ScenarioResult, TargetId } from './results.js'
import { median } from './stats.js'

/**
 * Milliseconds one durable append takes on the disk under `dir`: 4 KiB appended to a
 * file, then fsync, as an SQLite WAL commit does; the median of `count` in a row.
 */
export function fsyncLatency(dir: string, count = 200): number {
  const file = join(dir, `fsync-${process.pid}.tmp`)
  const fd = openSync(file, 'w')
  const page = Buffer.alloc(4096, 1)
  const samples: number[] = []
  try {
    for (let i = 0; i < count; i++) {
      const started = performance.now()
      writeSync(fd, page)
      fsyncSync(fd)
      samples.push(performance.now() - started)
    }
  } finally {
    closeSync(fd)
    rmSync(file, { force: true })
  }
  return median(samples)
}

/**
 * Milliseconds a single-row insert takes on PostgreSQL from send to committed answer
 * (synchronous_commit as the server has it), the median of `count` in a row, on a table
 * of its own that is dropped afterwards.
 */
export async function postgresCommitLatency(url: string, count = 200): Promise<number> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  const samples: number[] = []
  try {
    await client.query('create table bench_commit (id bigserial primary key, note text)')
    for (let i = 0; i < count; i++) {
      const started = performance.now()
      await client.query({
        name: 'bench_commit',
        text: 'insert into bench_commit (note) values ($1)',
        values: ['x'],
      })
      samples.push(performance.now() - started)
    }
    await client.query('drop table bench_commit')
  } finally {
    await client.end()
  }
  return median(samples)
}

const COMMIT_MS: Partial<Record<TargetId, keyof CommitCost>> = {
  sqlite: 'sqliteFsyncMs',
  postgres: 'postgresCommitMs',
  // The same database, reached through the pooler.
  pgbouncer: 'postgresCommitMs',
  baseline: 'sqliteFsyncMs',
}

/**
 * For every concurrency of a durable write (POST, PATCH or DELETE): the perfectly batched
 * limit (connections ÷ commit latency, capped by the ceiling's figure for the same write) and
 * tasklane's share of it.
 */
export function batchedLimits(
  create: ScenarioResult | undefined,
  cost: CommitCost,
): BatchedLimit[] {
  const limits: BatchedLimit[] = []
  for (const point of create?.points ?? []) {
    for (const target of ['sqlite', 'postgres', 'pgbouncer', 'baseline'] as const) {
      const measured = point.targets[target]?.rps
      const field = COMMIT_MS[target]
      const commitMs = field === undefined ? undefined : cost[field]
      if (measured === undefined || commitMs === undefined || !(commitMs > 0)) continue
      const ceiling = point.targets.ceiling?.rps ?? Number.POSITIVE_INFINITY
      const limit = Math.min((point.connections * 1000) / commitMs, ceiling)
      limits.push({
        ...(create ? { scenario: create.id } : {}),
        target,
        connections: point.connections,
        limit,
        measured,
        ratio: measured / limit,
      })
    }
  }
  return limits
}
