import SQLite from 'better-sqlite3'
import pg from 'pg'

/** When every seeded task was created: one fixed time, so payloads have one size. */
export const SEEDED_AT = Date.UTC(2026, 10, 25, 9, 30)

/** A seeded task as the API answers it (the contract's key order). */
export interface SeededTask {
  id: number
  listId: number
  name: string
  tag?: string
  status: 'open' | 'done'
  priority: number
  position: string
  version: number
  createdAt: string
  createdBy: string
  updatedAt: string
  updatedBy: string
}

/**
 * The n-th seeded task, as the SQL below writes it: the ceiling server answers with the
 * same objects, so both sides send payloads of the same shape and size.
 */
export function seedTask(n: number): SeededTask {
  const position = `g${String(n).padStart(7, '0')}`
  const tag = n % 4 === 0 ? {} : { tag: `tag-${n % 10}` }
  return { id: n, listId: 1, name: `Task ${n}`, ...tag, ...CREATED, position, ...STAMPS }
}

/** What every seeded Task carries besides id, name, tag and position: open, version 1. */
export const CREATED = { status: 'open' as const, priority: 0 }

/** When and by whom every seeded task was created: one time, so payloads have one size. */
const STAMPS = {
  version: 1,
  createdAt: new Date(SEEDED_AT).toISOString(),
  createdBy: 'local',
  updatedAt: new Date(SEEDED_AT).toISOString(),
  updatedBy: 'local',
}

/** SQL expression of a seeded task's columns from the integer `i`, shared by both dialects. */
const NAME = `'Task ' || i`
const TAG = `CASE WHEN i % 4 = 0 THEN NULL ELSE 'tag-' || (i % 10) END`
/** Which of the later columns the server's `tasks` table has (a build compared with `--server` may be older). */
interface Columns {
  /** The task lifecycle: status, version, times and seqs. */
  readonly lifecycle: boolean
  /** Lists and people: the seq that created a task. */
  readonly lists: boolean
  /** Planning: a place in the manual order and search text. */
  readonly planning: boolean
}

const columnsOf = (names: readonly string[]): Columns => ({
  lifecycle: names.includes('seq'),
  lists: names.includes('created_seq'),
  planning: names.includes('position'),
})

/**
 * The columns of a created task, and their values: open, version 1, seq after the table's
 * newest, in list 1 by `local` (the columns' defaults), one after another in the manual
 * order (fractional keys `g0000001`, `g0000002`…: integer keys of 7 digits), with its
 * search text (` task <n> `). A build from before the task lifecycle has only the first two.
 */
function insertOf(
  columns: Columns,
  dialect: 'sqlite' | 'postgres',
  planned = false,
): { columns: string; values: string } {
  if (!columns.lifecycle) return { columns: 'name, tag', values: `${NAME}, ${TAG}` }
  const base = '(SELECT coalesce(max(seq), 0) FROM tasks)'
  const names = ['name, tag, status, version, created_at, updated_at, seq, prev_seq']
  const values = [`${NAME}, ${TAG}, 'open', 1, ${SEEDED_AT}, ${SEEDED_AT}, ${base} + i, 0`]
  if (columns.lists) {
    names.push('created_seq')
    values.push(`${base} + i`)
  }
  if (columns.planning) {
    names.push('position, search')
    const position = dialect === 'sqlite' ? `printf('g%07d', i)` : `'g' || lpad(i::text, 7, '0')`
    if (planned) {
      const plan = plannedColumns(dialect, Date.now())
      names.push(plan.columns)
      values.push(`${position}, ' task ' || i || ' ' || ${plan.notes} || ' ', ${plan.values}`)
    } else values.push(`${position}, ' task ' || i || ' '`)
  }
  return { columns: names.join(', '), values: values.join(', ') }
}

/** Ten words of five letters: a planned task's notes are three of them, by its digits. */
export const NOTE_WORDS = [
  'alpha',
  'bravo',
  'delta',
  'gamma',
  'kappa',
  'lemon',
  'mango',
  'nylon',
  'ocean',
  'piano',
]

/** The n-th planned task's notes: the words of its units, tens and hundreds digits. */
export function plannedNotes(n: number): string {
  return [n % 10, Math.floor(n / 10) % 10, Math.floor(n / 100) % 10]
    .map((digit) => NOTE_WORDS[digit])
    .join(' ')
}

/** The n-th planned task's due day: none for every fourth, else `today` − 30 … + 30 days. */
export function plannedDue(n: number, today: string): string | undefined {
  if (n % 4 === 3) return undefined
  const start = Date.parse(`${today}T00:00:00Z`)
  return new Date(start + ((n % 61) - 30) * DAY_MS).toISOString().slice(0, 10)
}

const DAY_MS = 86_400_000

/**
 * The planning columns of a planned task, as SQL of `i` (what plannedNotes and plannedDue
 * say): priority `i % 4`; a due day from 30 days before `now`'s UTC day to 30 after (half
 * of them overdue), with its sort key, the last millisecond of that UTC day (the server's
 * dueParts); notes, whose words the search text carries after the name's.
 */
function plannedColumns(dialect: 'sqlite' | 'postgres', now: number) {
  const today = new Date(now).toISOString().slice(0, 10)
  const start = Date.parse(`${today}T00:00:00Z`)
  const vocabulary = NOTE_WORDS.join('')
  const word = (digit: string) => `substr('${vocabulary}', (${digit}) * 5 + 1, 5)`
  const notes = `${word('i % 10')} || ' ' || ${word('i / 10 % 10')} || ' ' || ${word('i / 100 % 10')}`
  const offset = dialect === 'sqlite' ? '((i % 61) - 30)' : '((i % 61) - 30)::bigint'
  const day =
    dialect === 'sqlite'
      ? `date('${today}', ((i % 61) - 30) || ' days')`
      : `to_char(date '${today}' + ((i % 61) - 30), 'YYYY-MM-DD')`
  const due = (value: string) => `CASE WHEN i % 4 = 3 THEN NULL ELSE ${value} END`
  return {
    columns: 'notes, priority, due, due_day, due_key',
    notes,
    values: [
      notes,
      'i % 4',
      due(day),
      due(day),
      due(`${start + DAY_MS - 1} + ${offset} * ${DAY_MS}`),
    ].join(', '),
  }
}

/** The change sequence past the seeded tasks' seqs. */
const SEQUENCE_AFTER_SEED =
  'UPDATE change_sequence SET seq = (SELECT max(seq) FROM tasks) WHERE id = 1'

/**
 * Appends `count` tasks to the `tasks` table of an SQLite file that the server has
 * already created and migrated, in one transaction, then folds the WAL back into the
 * database so the server reads from the main file.
 */
export function seedSqlite(filename: string, count: number, { planned = false } = {}): void {
  const db = new SQLite(filename)
  try {
    db.pragma('busy_timeout = 10000')
    const names = db.prepare('SELECT name FROM pragma_table_info(?)').pluck().all('tasks')
    const columns = columnsOf(names as string[])
    const insert = insertOf(columns, 'sqlite', planned)
    const first = (db.prepare('SELECT coalesce(max(id), 0) FROM tasks').pluck().get() as number) + 1
    db.exec(`WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < ${Math.trunc(count)})
      INSERT INTO tasks (${insert.columns}) SELECT ${insert.values} FROM s`)
    // Search reads SQLite's FTS5 table, which the server fills as it writes.
    // Since lists and people, writes take their seqs from change_sequence.
    if (columns.lists) db.exec(SEQUENCE_AFTER_SEED)
    if (columns.planning) {
      db.prepare(
        'INSERT INTO tasks_search (rowid, search) SELECT id, search FROM tasks WHERE id >= ?',
      ).run(first)
    }
    db.exec('ANALYZE')
    db.pragma('wal_checkpoint(TRUNCATE)')
  } finally {
    db.close()
  }
}

/** Appends `count` tasks to a PostgreSQL database whose `tasks` table the server created. */
export async function seedPostgres(
  url: string,
  count: number,
  { planned = false } = {},
): Promise<void> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    const { rows } = await client.query<{ name: string }>(
      `SELECT column_name AS name FROM information_schema.columns
       WHERE table_name = 'tasks' AND table_schema = current_schema()`,
    )
    const insert = insertOf(columnsOf(rows.map((row) => row.name)), 'postgres', planned)
    await client.query(
      `INSERT INTO tasks (${insert.columns}) SELECT ${insert.values}
       FROM generate_series(1, $1::int) AS s(i)`,
      [Math.trunc(count)],
    )
    if (rows.some((row) => row.name === 'created_seq')) await client.query(SEQUENCE_AFTER_SEED)
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
