import type { Role } from '../../domain/rights.js'
import { TASK_COLUMNS } from '../task-row.js'
import type {
  BatchContext,
  BatchRead,
  CurrentRow,
  OrderWindow,
  Placed,
  PlannedInsert,
  PlannedSeq,
  StoredKey,
  WriteStatements,
} from '../write-port.js'
import type { SQLiteDatabase } from './sqlite-driver.js'
import { taskRewriter, WRITTEN } from './sqlite-task-rewrites.js'

/** A seq of the plan, once the seq before its first change is known. */
const seqOf = (seq: PlannedSeq, base: number) => ('abs' in seq ? seq.abs : base + seq.off)

const PLACES = 'SELECT id, list_id AS listId, position FROM tasks'
const LIVE = "status <> 'deleted'"

/** The reads of a batch, on prepared statements of the writer's connection. */
function reads(db: SQLiteDatabase) {
  const get = <Row>(sql: string) => db.prepare<unknown[], Row>(sql)
  return {
    key: get<Omit<StoredKey, 'key'>>(
      `SELECT fingerprint, target_id AS targetId, seq, response FROM idempotency_keys
       WHERE key = ? AND created_at >= ?`,
    ),
    row: get<CurrentRow>(`SELECT ${TASK_COLUMNS.join(', ')}, seq FROM tasks WHERE id = ?`),
    roles: get<{ listId: number; role: Role }>(
      'SELECT list_id AS listId, role FROM members WHERE principal = ?',
    ),
    live: get<{ one: number }>("SELECT 1 AS one FROM lists WHERE id = ? AND status = 'live'"),
    first: get<{ id: number | null }>("SELECT min(id) AS id FROM lists WHERE status = 'live'"),
    sequence: get<{ seq: number; accessSeq: number }>(
      'SELECT seq, access_seq AS accessSeq FROM change_sequence WHERE id = 1',
    ),
    order: get<{ orderSeq: number }>('SELECT order_seq AS orderSeq FROM lists WHERE id = ?'),
    pivot: get<Placed>(`${PLACES} WHERE id = ? AND ${LIVE}`),
    bottom: get<Placed>(`${PLACES} WHERE list_id = ? AND ${LIVE} ORDER BY position DESC LIMIT ?`),
    top: get<Placed>(`${PLACES} WHERE list_id = ? AND ${LIVE} ORDER BY position ASC LIMIT ?`),
    before: get<Placed>(
      `${PLACES} WHERE list_id = ? AND ${LIVE} AND position < ? ORDER BY position DESC LIMIT ?`,
    ),
    after: get<Placed>(
      `${PLACES} WHERE list_id = ? AND ${LIVE} AND position > ? ORDER BY position ASC LIMIT ?`,
    ),
  }
}

type Reads = ReturnType<typeof reads>

/** The windows of manual orders a batch asked for: the places read, and each window resolved. */
function readWindows(
  statements: Reads,
  windows: readonly OrderWindow[],
  firstList: number | undefined,
) {
  const placed: Placed[] = []
  const read: Omit<OrderWindow, 'size'>[] = []
  for (const { listId, at, size } of windows) {
    if (typeof at === 'string') {
      const list = listId === 'first' ? firstList : listId
      if (list === undefined || list === 0) continue
      placed.push(...statements[at].all(list, size))
      read.push({ listId: list, at })
      continue
    }
    const pivot = statements.pivot.get(at.around)
    if (pivot === undefined) continue
    placed.push(pivot)
    placed.push(...statements.before.all(pivot.listId, pivot.position, size))
    placed.push(...statements.after.all(pivot.listId, pivot.position, size))
    read.push({ listId: pivot.listId, at })
  }
  return { placed, read }
}

/**
 * Takes a task (rowid, search) out of the search index. The index keeps no copy of the
 * text (migration 0012), so it is told the text it indexed, which it removes.
 */
export const UNINDEX_SQL =
  "INSERT INTO tasks_search (tasks_search, rowid, search) VALUES ('delete', ?, ?)"

/**
 * The write algorithm's statements on prepared SQLite statements, run synchronously inside
 * the transaction the caller has begun: nothing can change between reading and writing.
 * Search text goes to the FTS5 index `tasks_search` of `tasks.search` with the task.
 */
export function sqliteStatements(db: SQLiteDatabase): WriteStatements {
  const statements = reads(db)
  const columns = WRITTEN.join(', ')
  const values = WRITTEN.map((column) => `@${column}`).join(', ')
  // No RETURNING and no trigger on tasks (migration 0011): with neither, SQLite runs the
  // insert without its trigger machinery, a fifth of a create's writer time. The id comes
  // from lastInsertRowid; writeBatch refuses one above 2^53-1 before the commit.
  const insertTask = db.prepare<[PlannedInsert & { now: number; seq: number }]>(
    `INSERT INTO tasks (${columns}, version, created_at, updated_at, created_by, updated_by,
       seq, prev_seq, created_seq)
     VALUES (${values}, 1, @now, @now, @created_by, @created_by, @seq, 0, @seq)`,
  )
  const rewriteTask = taskRewriter(db)
  const searchable = db.prepare('INSERT INTO tasks_search (rowid, search) VALUES (?, ?)')
  const unsearchable = db.prepare(UNINDEX_SQL)
  const keep = db.prepare(
    `INSERT INTO task_history (seq, task_id, list_id, at, actor, type, changes, task)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  )
  const ordered = db.prepare('UPDATE lists SET order_seq = ? WHERE id = ?')
  const advance = db.prepare('UPDATE change_sequence SET seq = ? WHERE id = 1')
  const saveKey = db.prepare(
    `INSERT INTO idempotency_keys (key, fingerprint, target_id, created_at, seq, response)
     VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (key) DO UPDATE SET fingerprint = excluded.fingerprint,
       target_id = excluded.target_id, created_at = excluded.created_at, seq = excluded.seq,
       response = excluded.response`,
  )
  return {
    read(request: BatchRead): BatchContext {
      const keys = request.keys.flatMap((key) => {
        const row = statements.key.get(key, request.notBefore)
        return row === undefined ? [] : [{ key, ...row }]
      })
      const rows = request.ids.flatMap((id) => statements.row.all(id))
      const members = request.principals.flatMap((principal) =>
        statements.roles.all(principal).map(({ listId, role }) => ({ principal, listId, role })),
      )
      const lists = request.lists
        .filter((id) => statements.live.get(id) !== undefined)
        .sort((a, b) => a - b)
      const firstList = statements.first.get()?.id ?? undefined
      const { accessSeq } = statements.sequence.get() as { accessSeq: number }
      const { placed, read } = readWindows(statements, request.windows, firstList)
      const orderLists = [...new Set(read.map(({ listId }) => listId as number))]
      const orders = orderLists.map((listId) => ({
        listId,
        orderSeq: statements.order.get(listId)?.orderSeq ?? 0,
      }))
      return { keys, rows, members, lists, firstList, accessSeq, windows: read, placed, orders }
    },
    apply(plan) {
      const base = (statements.sequence.get() as { seq: number }).seq
      // The search index's changes, written last: FTS5 writes what it holds to disk at the
      // start of every other statement of the transaction (its savepoint), so interleaved
      // with the tasks' statements it wrote one small segment a task and merged them all.
      const unindex: [number, string][] = []
      const index: [number, string][] = []
      for (const row of plan.rewrites) {
        const { changes, was } = rewriteTask({
          ...row,
          now: plan.now,
          seq: base + row.off,
          prevSeq: seqOf(row.prevSeq, base),
        })
        // Inside the write transaction nothing else writes: a miss is a fault, and the
        // transaction is rolled back whole.
        if (changes !== 1) throw new Error(`Task ${row.id} changed inside its write transaction.`)
        const live = row.status !== 'deleted'
        if (was !== undefined && was.status !== 'deleted' && (!live || was.search !== row.search)) {
          unindex.push([row.id, was.search])
        }
        if (live && (was === undefined || was.status === 'deleted' || was.search !== row.search)) {
          index.push([row.id, row.search])
        }
      }
      const ids = plan.inserts.map((task) => {
        const id = Number(
          insertTask.run({ ...task, now: plan.now, seq: base + task.off }).lastInsertRowid,
        )
        index.push([id, task.search])
        return id
      })
      for (const change of plan.history) {
        const { off, task, listId, actor, type, changes, snapshot } = change
        const taskId = 'id' in task ? task.id : (ids[task.insert] as number)
        keep.run(base + off, taskId, listId, plan.now, actor, type, changes, snapshot)
      }
      for (const key of plan.keys) {
        const targetId = 'id' in key.task ? key.task.id : (ids[key.task.insert] as number)
        saveKey.run(
          key.key,
          key.fingerprint,
          targetId,
          plan.now,
          seqOf(key.seq, base),
          key.response,
        )
      }
      if (plan.changes > 0) {
        for (const { listId } of plan.orders) ordered.run(base + plan.changes, listId)
        advance.run(base + plan.changes)
      }
      for (const [id, search] of unindex) unsearchable.run(id, search)
      for (const [id, search] of index) searchable.run(id, search)
      return { base, ids }
    },
  }
}
