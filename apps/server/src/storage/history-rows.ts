import type { HistoryEntry } from '@tasklane/contract'
import type { Kysely } from 'kysely'
import { type Reads, sequence } from './reads.js'
import type { HistoryType, RowStatus, Schema } from './tables.js'
import type { AtSeq } from './terms.js'

/** Entries deleted per statement: pruning never holds the write lock for long. */
const PRUNE_BATCH = 5_000

/** A task's history as read: the list it is (or was last) in, and a page of its entries. */
export interface TaskHistory {
  /** Undefined when no task ever had the id. */
  readonly task: { readonly listId: number; readonly deleted: boolean } | undefined
  readonly entries: HistoryEntry[]
}

interface HistoryRow {
  list_id: number | null
  status: RowStatus | null
  seq: number | null
  at: number | null
  actor: string | null
  type: HistoryType | null
  changes: string | null
  newest: number
  access: number
}

/**
 * Up to `limit` entries of task `id`'s history with seqs below `before`, newest first, with
 * the task's list and the sequence: one statement, one snapshot.
 */
export async function readHistory(
  reads: Reads,
  id: number,
  before: number,
  limit: number,
): Promise<AtSeq<TaskHistory>> {
  const shape = reads.shapes.get('history', (db, value) =>
    db
      .selectFrom(sequence(db))
      .leftJoin('tasks as t', (join) => join.on('t.id', '=', value('id')))
      .leftJoin(
        db
          .selectFrom('task_history')
          .select(['seq', 'at', 'actor', 'type', 'changes'])
          .where('task_id', '=', value('id'))
          .where('seq', '<', value('before'))
          .orderBy('seq', 'desc')
          .limit(value('limit'))
          .as('h'),
        (join) => join.onTrue(),
      )
      .select(['s.newest', 's.access', 't.list_id', 't.status', 'h.seq', 'h.at', 'h.actor'])
      .select(['h.type', 'h.changes'])
      .orderBy('h.seq', 'desc'),
  )
  const rows = await reads.execute<HistoryRow>(shape, { id, before, limit })
  const first = rows[0]
  const entries: HistoryEntry[] = []
  for (const row of rows) {
    if (row.seq === null) continue
    entries.push({
      seq: Number(row.seq),
      at: new Date(Number(row.at)).toISOString(),
      actor: row.actor as string,
      type: row.type as HistoryType,
      changes: JSON.parse(row.changes as string),
    })
  }
  const task =
    first?.list_id == null
      ? undefined
      : { listId: Number(first.list_id), deleted: first.status === 'deleted' }
  return {
    value: { task, entries },
    seq: Number(first?.newest ?? 0),
    accessSeq: Number(first?.access ?? 0),
  }
}

/**
 * Deletes the history entries older than `before`, except those an enabled webhook has not
 * delivered yet (a seq above its cursor): a batch at a time, so that writes go on between
 * them. Returns how many went.
 */
export async function pruneHistory(db: Kysely<Schema>, before: number): Promise<number> {
  const pending = await db
    .selectFrom('webhooks')
    .select((eb) => eb.fn.min('cursor').as('cursor'))
    .where('deleted', '=', 0)
    .where('enabled', '=', 1)
    .executeTakeFirst()
  const keepAfter = pending?.cursor == null ? Number.MAX_SAFE_INTEGER : Number(pending.cursor)
  let pruned = 0
  for (;;) {
    const result = await db
      .deleteFrom('task_history')
      .where(
        'seq',
        'in',
        db
          .selectFrom('task_history')
          .select('seq')
          .where('at', '<', before)
          .where('seq', '<=', keepAfter)
          .limit(PRUNE_BATCH),
      )
      .executeTakeFirst()
    const deleted = Number(result.numDeletedRows)
    pruned += deleted
    if (deleted < PRUNE_BATCH) return pruned
  }
}
