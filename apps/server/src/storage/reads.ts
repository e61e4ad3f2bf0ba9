import type { Task } from '@tasklane/contract'
import { type Compilable, type Kysely, sql } from 'kysely'
import { type CompiledShape, compileShape, parametersOf, type RunQuery } from './compiled-query.js'
import { type AtSeq, type Change, closed, type ListFilter, type Snapshot } from './storage.js'
import type { RowStatus, Schema } from './tables.js'
import { CHANGE_COLUMNS, type ChangeRow, TASK_COLUMNS, type TaskRow, toTask } from './task-row.js'

type Db = Kysely<Schema>

/** Every value a read may take; each shape uses some of them. */
interface ReadValues {
  id: number
  after: number
  before: number
  tag: string
  status: string
  limit: number
}

type Value = <K extends keyof ReadValues & string>(name: K) => ReadValues[K]

/** A row of a read that also tells the newest seq of the snapshot it was read in. */
type WithNewest<Row> = { newest: number | null } & { [K in keyof Row]: Row[K] | null }

const DELETED = sql.lit<RowStatus>('deleted')

/**
 * The SQL of every read, the same on every backend: each shape (a listing with or without
 * `before`, `tag`, `status`, descending…) is built and compiled by Kysely once, on its first
 * use; later requests only bind their values to the backend's prepared statement.
 */
export class ReadShapes {
  readonly #db: Db
  readonly #shapes = new Map<string, CompiledShape<ReadValues>>()

  constructor(db: Db) {
    this.#db = db
  }

  /** The shape named `key`, compiled from `build` the first time it is asked for. */
  get(key: string, build: (db: Db, value: Value) => Compilable): CompiledShape<ReadValues> {
    let compiled = this.#shapes.get(key)
    if (compiled === undefined) {
      compiled = compileShape<ReadValues>((value) => build(this.#db, value))
      this.#shapes.set(key, compiled)
    }
    return compiled
  }
}

/** The live tasks a filter lists, in its order (without a select list). */
function filtered(db: Db, filter: ListFilter, value: Value) {
  let query = db.selectFrom('tasks').where('id', '>', value('after'))
  if (filter.before !== undefined) query = query.where('id', '<', value('before'))
  if (filter.tag !== undefined) query = query.where('tag', '=', value('tag'))
  query =
    filter.status === undefined
      ? query.where('status', '<>', DELETED)
      : query.where('status', '=', value('status') as RowStatus)
  return query.orderBy('id', filter.order === 'desc' ? 'desc' : 'asc')
}

const filterKey = (filter: ListFilter) =>
  `${filter.before !== undefined}:${filter.tag !== undefined}:${filter.status !== undefined}:${filter.order === 'desc'}`

const filterValues = (filter: ListFilter) => ({
  after: filter.after ?? 0,
  before: filter.before,
  tag: filter.tag,
  status: filter.status,
})

/** The newest seq of the database, as a one-row subquery. */
const newestSeq = (db: Db) =>
  db
    .selectFrom('tasks')
    .select((eb) => eb.fn.max('seq').as('newest'))
    .as('s')

/**
 * Rows read with the snapshot's newest seq joined (one row of nulls when none matched):
 * each row that holds one, as `convert` makes it, and that seq.
 */
function rowsAtSeq<Row extends TaskRow, T>(
  rows: readonly WithNewest<Row>[],
  convert: (row: Row) => T,
): AtSeq<T[]> {
  const seq = Number(rows[0]?.newest ?? 0)
  const values: T[] = []
  for (const row of rows) if (row.id !== null) values.push(convert(row as Row))
  return { value: values, seq }
}

function toChange(row: ChangeRow): Change {
  const deleted = row.status === 'deleted'
  const prevSeq = Number(row.prev_seq)
  return {
    seq: Number(row.seq),
    id: Number(row.id),
    version: Number(row.version),
    task: deleted ? undefined : toTask(row),
    prevSeq,
    prev:
      prevSeq === 0
        ? undefined
        : { tag: row.prev_tag ?? undefined, status: row.prev_status === 'done' ? 'done' : 'open' },
  }
}

/**
 * The reads of the Storage port, on one way to run SQL: the backend's prepared statements
 * on its shared connections, or those of one snapshot's connection.
 */
export class Reads {
  readonly #shapes: ReadShapes
  readonly #run: RunQuery

  constructor(shapes: ReadShapes, run: RunQuery) {
    this.#shapes = shapes
    this.#run = run
  }

  #execute<Row>(compiled: CompiledShape<ReadValues>, values: Partial<ReadValues>) {
    return this.#run<Row>(compiled.sql, parametersOf(compiled, values as ReadValues))
  }

  /** The live task with this id and the newest seq, in one statement (one snapshot). */
  async findTask(id: number): Promise<AtSeq<Task | undefined>> {
    const shape = this.#shapes.get('find', (db, value) =>
      db
        .selectFrom(newestSeq(db))
        .leftJoin('tasks as t', (join) =>
          join.on((eb) => eb.and([eb('t.id', '=', value('id')), eb('t.status', '<>', DELETED)])),
        )
        .select(['s.newest', ...TASK_COLUMNS.map((column) => `t.${column}` as const)]),
    )
    const [row] = await this.#execute<WithNewest<TaskRow>>(shape, { id })
    return {
      value: row?.id == null ? undefined : toTask(row as TaskRow),
      seq: Number(row?.newest ?? 0),
    }
  }

  /** Up to `limit` live tasks matching the filter, in its order, and the newest seq: one statement. */
  async selectPage(filter: ListFilter, limit: number): Promise<AtSeq<Task[]>> {
    const shape = this.#shapes.get(`list-at-seq:${filterKey(filter)}`, (db, value) =>
      db
        .selectFrom(newestSeq(db))
        .leftJoin(
          filtered(db, filter, value).select(TASK_COLUMNS).limit(value('limit')).as('t'),
          (join) => join.onTrue(),
        )
        .select(['s.newest', ...TASK_COLUMNS.map((column) => `t.${column}` as const)])
        .orderBy('t.id', filter.order === 'desc' ? 'desc' : 'asc'),
    )
    return rowsAtSeq(
      await this.#execute<WithNewest<TaskRow>>(shape, { ...filterValues(filter), limit }),
      toTask,
    )
  }

  /** Up to `limit` live tasks matching the filter, in its order. */
  async selectTasks(filter: ListFilter, limit: number): Promise<Task[]> {
    const shape = this.#shapes.get(`list:${filterKey(filter)}`, (db, value) =>
      filtered(db, filter, value).select(TASK_COLUMNS).limit(value('limit')),
    )
    const rows = await this.#execute<TaskRow>(shape, { ...filterValues(filter), limit })
    return rows.map(toTask)
  }

  /** Up to `limit` ids of live tasks matching the filter, in its order. */
  async selectIds(filter: ListFilter, limit: number): Promise<number[]> {
    const shape = this.#shapes.get(`ids:${filterKey(filter)}`, (db, value) =>
      filtered(db, filter, value).select('id').limit(value('limit')),
    )
    const rows = await this.#execute<{ id: number }>(shape, { ...filterValues(filter), limit })
    return rows.map((row) => Number(row.id))
  }

  /** The newest seq, 0 when nothing was ever written. */
  async newestSeq(): Promise<number> {
    const shape = this.#shapes.get('newest', (db) =>
      db.selectFrom('tasks').select((eb) => eb.fn.max('seq').as('seq')),
    )
    const [row] = await this.#execute<{ seq: number | null }>(shape, {})
    return Number(row?.seq ?? 0)
  }

  /**
   * Up to `limit` rows whose latest change has a seq above `after`, by seq: the change feed;
   * and the newest seq of the same snapshot (every change up to it was visible to the read,
   * none after it), in one statement.
   */
  async changesAfter(after: number, limit: number): Promise<AtSeq<Change[]>> {
    const shape = this.#shapes.get('changes', (db, value) =>
      db
        .selectFrom(newestSeq(db))
        .leftJoin(
          db
            .selectFrom('tasks')
            .select(CHANGE_COLUMNS)
            .where('seq', '>', value('after'))
            .orderBy('seq')
            .limit(value('limit'))
            .as('c'),
          (join) => join.onTrue(),
        )
        .select(['s.newest', ...CHANGE_COLUMNS.map((column) => `c.${column}` as const)])
        .orderBy('c.seq'),
    )
    return rowsAtSeq(await this.#execute<WithNewest<ChangeRow>>(shape, { after, limit }), toChange)
  }

  /** How many live tasks there are. */
  async countTasks(): Promise<number> {
    const shape = this.#shapes.get('count', (db) =>
      db
        .selectFrom('tasks')
        .select((eb) => eb.fn.countAll().as('count'))
        .where('status', '<>', DELETED),
    )
    const [row] = await this.#execute<{ count: number | string }>(shape, {})
    return Number(row?.count ?? 0)
  }
}

/** Deletes keys created before `before`; returns how many went. */
export async function purgeIdempotencyKeys(db: Db, before: number): Promise<number> {
  const result = await db
    .deleteFrom('idempotency_keys')
    .where('created_at', '<', before)
    .executeTakeFirst()
  return Number(result.numDeletedRows)
}

/** True when the database answers a trivial query. */
export async function ping(db: Db): Promise<boolean> {
  try {
    await sql`select 1`.execute(db)
    return true
  } catch {
    return false
  }
}

/**
 * A Snapshot over `reads`, which run inside a transaction of their own connection: its
 * seq is the transaction's first read (which takes the snapshot), its reads fail once it
 * is closed, and `end` (called once) finishes the transaction and hands the connection back.
 */
export async function snapshotOf(reads: Reads, end: () => Promise<void> | void): Promise<Snapshot> {
  const seq = await reads.newestSeq()
  let open = true
  return {
    seq,
    // Never on a connection handed back: it may hold another snapshot already.
    readTasks: (filter, limit) => (open ? reads.selectTasks(filter, limit) : closed()),
    readIds: (filter, limit) => (open ? reads.selectIds(filter, limit) : closed()),
    close: async () => {
      if (!open) return
      open = false
      await end()
    },
  }
}
