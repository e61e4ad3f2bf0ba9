import type { Task } from '@tasklane/contract'
import { type Compilable, type Kysely, sql } from 'kysely'
import { type CompiledShape, compileShape, parametersOf, type RunQuery } from './compiled-query.js'
import type { Dialect } from './migrations/dialect.js'
import { isKeyed, ordered, SORT_EXTRA_COLUMNS, sortedTasks } from './sort-order.js'
import type { RowStatus, Schema } from './tables.js'
import { filtered, filterKey, filterValues, type ReadValues, type Value } from './task-filter.js'
import { CHANGE_COLUMNS, type ChangeRow, TASK_COLUMNS, type TaskRow, toTask } from './task-row.js'
import type { AtSeq, Change, ListFilter, Sequence, Snapshot } from './terms.js'
import { closed } from './terms.js'

type Db = Kysely<Schema>

/** A row of a read that also tells where the sequence stood for the snapshot it was read in. */
type WithSequence<Row> = { newest: number | null; access: number | null } & {
  [K in keyof Row]: Row[K] | null
}

const DELETED = sql.lit<RowStatus>('deleted')

/** What a read in another sort than id selects: the Task's columns and the sort's own. */
const SORTED_COLUMNS = [...TASK_COLUMNS, ...SORT_EXTRA_COLUMNS]

/**
 * The SQL of every read, the same on every backend: each shape (a listing with or without
 * `before`, `tag`, `status`, descending…) is built and compiled by Kysely once, on its first
 * use; later requests only bind their values to the backend's prepared statement.
 */
export class ReadShapes {
  readonly #db: Db
  readonly #shapes = new Map<string, CompiledShape<ReadValues>>()
  readonly dialect: Dialect

  constructor(db: Db, dialect: Dialect) {
    this.#db = db
    this.dialect = dialect
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

/** Where the sequence stands, as a one-row subquery: the snapshot's newest and access seqs. */
export const sequence = (db: Db) =>
  db
    .selectFrom('change_sequence')
    .select(['seq as newest', 'access_seq as access'])
    .where('id', '=', sql.lit(1))
    .as('s')

/**
 * Rows read with the snapshot's sequence joined (one row of nulls when none matched): each
 * row that holds one, as `convert` makes it, and the sequence.
 */
function rowsAtSeq<Row extends TaskRow, T>(
  rows: readonly WithSequence<Row>[],
  convert: (row: Row) => T,
): AtSeq<T[]> {
  const values: T[] = []
  for (const row of rows) if (row.id !== null) values.push(convert(row as Row))
  return { value: values, ...sequenceOf(rows[0]) }
}

const sequenceOf = (
  row: { newest: number | null; access: number | null } | undefined,
): Sequence => ({
  seq: Number(row?.newest ?? 0),
  accessSeq: Number(row?.access ?? 0),
})

function toChange(row: ChangeRow): Change {
  const deleted = row.status === 'deleted'
  const prevSeq = Number(row.prev_seq)
  return {
    seq: Number(row.seq),
    id: Number(row.id),
    version: Number(row.version),
    listId: Number(row.list_id),
    task: deleted ? undefined : toTask(row),
    prevSeq,
    createdSeq: Number(row.created_seq),
    prev:
      prevSeq === 0
        ? undefined
        : {
            tag: row.prev_tag ?? undefined,
            status: row.prev_status === 'done' ? 'done' : 'open',
            // A change made before lists existed moved nothing: the task was in list 1.
            listId: Number(row.prev_list_id ?? row.list_id),
            planning:
              row.prev_priority === null
                ? undefined
                : { priority: Number(row.prev_priority), due: row.prev_due ?? undefined },
          },
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

  get shapes(): ReadShapes {
    return this.#shapes
  }

  /** Runs `compiled` with `values`: for the other reads built on the same shapes (access-reads.ts). */
  execute<Row>(compiled: CompiledShape<ReadValues>, values: Partial<ReadValues>) {
    return this.#run<Row>(compiled.sql, parametersOf(compiled, values as ReadValues))
  }

  /** The live task with this id and the sequence, in one statement (one snapshot). */
  async findTask(id: number): Promise<AtSeq<Task | undefined>> {
    const shape = this.#shapes.get('find', (db, value) =>
      db
        .selectFrom(sequence(db))
        .leftJoin('tasks as t', (join) =>
          join.on((eb) => eb.and([eb('t.id', '=', value('id')), eb('t.status', '<>', DELETED)])),
        )
        .select(['s.newest', 's.access', ...TASK_COLUMNS.map((column) => `t.${column}` as const)]),
    )
    const [row] = await this.execute<WithSequence<TaskRow>>(shape, { id })
    return {
      value: row?.id == null ? undefined : toTask(row as TaskRow),
      ...sequenceOf(row),
    }
  }

  /** Up to `limit` live tasks matching the filter, in its order, and the sequence: one statement. */
  async selectPage(filter: ListFilter, limit: number): Promise<AtSeq<Task[]>> {
    const { dialect } = this.#shapes
    const shape = this.#shapes.get(`page:${filterKey(filter)}`, (db, value) => {
      const joined = db
        .selectFrom(sequence(db))
        .leftJoin(
          isKeyed(filter)
            ? sortedTasks(db, dialect, filter, value, SORTED_COLUMNS).as('t')
            : filtered(db, dialect, filter, value)
                .select(TASK_COLUMNS)
                .limit(value('limit'))
                .as('t'),
          (join) => join.onTrue(),
        )
        .select(['s.newest', 's.access', ...TASK_COLUMNS.map((column) => `t.${column}` as const)])
      return isKeyed(filter)
        ? ordered(joined, filter, (name) => sql.ref(`t.${name}`))
        : joined.orderBy('t.id', filter.order === 'desc' ? 'desc' : 'asc')
    })
    const values = { ...filterValues(dialect, filter), limit }
    return rowsAtSeq(await this.execute<WithSequence<TaskRow>>(shape, values), toTask)
  }

  /** Up to `limit` live tasks matching the filter, in its order. */
  async selectTasks(filter: ListFilter, limit: number): Promise<Task[]> {
    const { dialect } = this.#shapes
    const shape = this.#shapes.get(`tasks:${filterKey(filter)}`, (db, value) =>
      isKeyed(filter)
        ? sortedTasks(db, dialect, filter, value, SORTED_COLUMNS)
        : filtered(db, dialect, filter, value).select(TASK_COLUMNS).limit(value('limit')),
    )
    const rows = await this.execute<TaskRow>(shape, { ...filterValues(dialect, filter), limit })
    return rows.map(toTask)
  }

  /** Up to `limit` ids of live tasks matching the filter, in its order. */
  async selectIds(filter: ListFilter, limit: number): Promise<number[]> {
    const { dialect } = this.#shapes
    const shape = this.#shapes.get(`ids:${filterKey(filter)}`, (db, value) =>
      isKeyed(filter)
        ? sortedTasks(db, dialect, filter, value, SORTED_COLUMNS)
        : filtered(db, dialect, filter, value).select('id').limit(value('limit')),
    )
    const rows = await this.execute<{ id: number }>(shape, {
      ...filterValues(dialect, filter),
      limit,
    })
    return rows.map((row) => Number(row.id))
  }

  /** Where the sequence stands: the newest seq and access seq (0 and 0 before any change). */
  async sequence(): Promise<Sequence> {
    const shape = this.#shapes.get('sequence', (db) =>
      db
        .selectFrom('change_sequence')
        .select(['seq as newest', 'access_seq as access'])
        .where('id', '=', sql.lit(1)),
    )
    const [row] = await this.execute<{ newest: number; access: number }>(shape, {})
    return sequenceOf(row)
  }

  /**
   * Up to `limit` rows whose latest change has a seq above `after`, by seq: the change feed;
   * and the sequence of the same snapshot (every change up to it was visible to the read,
   * none after it), in one statement.
   */
  async changesAfter(after: number, limit: number): Promise<AtSeq<Change[]>> {
    const shape = this.#shapes.get('changes', (db, value) =>
      db
        .selectFrom(sequence(db))
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
        .select(['s.newest', 's.access', ...CHANGE_COLUMNS.map((column) => `c.${column}` as const)])
        .orderBy('c.seq'),
    )
    return rowsAtSeq(await this.execute<WithSequence<ChangeRow>>(shape, { after, limit }), toChange)
  }

  /** How many live tasks there are. */
  async countTasks(): Promise<number> {
    const shape = this.#shapes.get('count', (db) =>
      db
        .selectFrom('tasks')
        .select((eb) => eb.fn.countAll().as('count'))
        .where('status', '<>', DELETED),
    )
    const [row] = await this.execute<{ count: number | string }>(shape, {})
    return Number(row?.count ?? 0)
  }
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
  const { seq, accessSeq } = await reads.sequence()
  let open = true
  return {
    seq,
    accessSeq,
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
