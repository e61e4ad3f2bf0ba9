import SQLite from 'better-sqlite3'
import pg from 'pg'

/** When every seeded task was created: one fixed time, so payloads have one size. */
export const SEEDED_AT = Date.UTC(2026, 10, 25, 9, 30)

/** A seeded task as the API answers it. */
export interface SeededTask {
  id: number
  name: string
  tag?: string
  status: 'open' | 'done'
  version: number
  createdAt: string
  updatedAt: string
}

/**
 * The n-th seeded task, as the SQL below writes it: the ceiling server answers with the
 * same objects, so both sides send payloads of the same shape and size.
 */
export function seedTask(n: number): SeededTask {
  return n % 4 === 0
    ? { id: n, name: `Task ${n}`, ...CREATED }
    : { id: n, name: `Task ${n}`, tag: `tag-${n % 10}`, ...CREATED }
}

/** What every seeded Task carries besides id, name and tag: open, version 1, created then. */
export const CREATED = {
  status: 'open' as const,
  version: 1,
  createdAt: new Date(SEEDED_AT).toISOString(),
  updatedAt: new Date(SEEDED_AT).toISOString(),
}

/** SQL expression of a seeded task's columns from the integer `i`, shared by both dialects. */
const NAME = `'Task ' || i`
const TAG = `CASE WHEN i % 4 = 0 THEN NULL ELSE 'tag-' || (i % 10) END`
/**
 * The columns of a created task, and their values: open, version 1, seq after the table's
 * newest. A build from before the task lifecycle (compared with `--server`) has only the
 * first two.
 */
function insertOf(lifecycle: boolean): { columns: string; values: string } {
  if (!lifecycle) return { columns: 'name, tag', values: `${NAME}, ${TAG}` }
  const base = '(SELECT coalesce(max(seq), 0) FROM tasks)'
  return {
    columns: 'name, tag, status, version, created_at, updated_at, seq, prev_seq',
    values: `${NAME}, ${TAG}, 'open', 1, ${SEEDED_AT}, ${SEEDED_AT}, ${base} + i, 0`,
  }
}

/**
 * Appends `count` tasks to the `tasks` table of an SQLite file that the server has
 * already created and migrated, in one transaction, then folds the WAL back into the
 * database so the server reads from the main file.
 */
export function seedSqlite(filename: string, count: number): void {
  const db = new SQLite(filename)
  try {
    db.pragma('busy_timeout = 10000')
    const columns = db.prepare('SELECT name FROM pragma_table_info(?)').pluck().all('tasks')
    const insert = insertOf(columns.includes('seq'))
    db.exec(`WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < ${Math.trunc(count)})
      INSERT INTO tasks (${insert.columns}) SELECT ${insert.values} FROM s`)
    db.exec('ANALYZE')
    db.pragma('wal_checkpoint(TRUNCATE)')
  } finally {
    db.close()
  }
}

/** Appends `count` tasks to a PostgreSQL database whose `tasks` table the server created. */
export async function seedPostgres(url: string, count: number): Promise<void> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    const { rows } = await client.query<{ name: string }>(
      `SELECT column_name AS name FROM information_schema.columns
       WHERE table_name = 'tasks' AND table_schema = current_schema()`,
    )
    const insert = insertOf(rows.some((row) => row.name === 'seq'))
    await client.query(
      `INSERT INTO tasks (${insert.columns}) SELECT ${insert.values}
       FROM generate_series(1, $1::int) AS s(i)`,
      [Math.trunc(count)],
    )
    await client.query('VACUUM ANALYZE tasks')
  } finally {
    await client.end()
  }
}

/** A PostgreSQL URL with another database name. */
export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url)
  parsed.pathname = `/${database}`
  return parsed.toString()
}

/**
 * Creates an empty database for one run next to the one `url` names, so the benchmark
 * never touches existing data; `drop` removes it again.
 */
export async function createScratchDatabase(
  url: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `tasklane_bench_${process.pid}_${Date.now()}`
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  try {
    await admin.query(`CREATE DATABASE ${name}`)
  } finally {
    await admin.end()
  }
  return {
    url: withDatabase(url, name),
    async drop() {
      const client = new pg.Client({ connectionString: url })
      await client.connect()
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      } finally {
        await client.end()
      }
    },
  }
}
