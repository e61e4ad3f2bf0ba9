import type { PlannedRewrite } from '../write-port.js'
import type { SQLiteDatabase } from './sqlite-driver.js'

/** The columns a write sets, as named parameters (`@name`). */
export const WRITTEN = [
  'name',
  'tag',
  'status',
  'list_id',
  'notes',
  'due',
  'due_day',
  'due_at',
  'due_key',
  'priority',
  'completed_at',
  'position',
  'search',
] as const

type Written = (typeof WRITTEN)[number]
type Stored = Record<Written, unknown>

/** What every change sets: none of it but `seq` and `updated_at` is indexed, and those change always. */
const ALWAYS = `version = @version, updated_at = @now, updated_by = @updated_by, seq = @seq,
  prev_seq = @prevSeq, prev_tag = @prevTag, prev_status = @prevStatus,
  prev_list_id = @prevListId, prev_priority = @prevPriority, prev_due = @prevDue`

/** Distinct sets of changed columns kept prepared; past it, a change sets every column. */
const MAX_SHAPES = 128

/** A row the plan rewrites, with the seqs the transaction gives it. */
export type Rewrite = Omit<PlannedRewrite, 'prevSeq'> & {
  now: number
  seq: number
  prevSeq: number
}

/**
 * Rewrites a task's row setting only the columns whose values change. SQLite updates every
 * index on a column a statement sets, equal value or not: setting all thirteen moved eight
 * indexes' entries for a rename (60 µs of a PATCH's writer time, and their pages written to
 * the WAL), where the task's name and search text touch none. Answers the row's search text
 * and status before the change (undefined: no such row), for the search index.
 */
export function taskRewriter(db: SQLiteDatabase) {
  const stored = db.prepare<[number], Stored>(
    `SELECT ${WRITTEN.join(', ')} FROM tasks WHERE id = ?`,
  )
  const shapes = new Map<string, ReturnType<SQLiteDatabase['prepare']>>()
  const statement = (changed: readonly Written[]) => {
    const key = changed.join(',')
    let prepared = shapes.get(key)
    if (prepared === undefined) {
      const set = changed.map((column) => `${column} = @${column}, `).join('')
      prepared = db.prepare(
        `UPDATE tasks SET ${set}${ALWAYS} WHERE id = @id AND seq = @expectedSeq`,
      )
      if (shapes.size < MAX_SHAPES) shapes.set(key, prepared)
    }
    return prepared
  }
  return (row: Rewrite) => {
    const was = stored.get(row.id)
    const changed = WRITTEN.filter((column) => was === undefined || was[column] !== row[column])
    const { changes } = statement(changed).run(row)
    return {
      changes,
      was: was && { status: was.status as string, search: was.search as string },
    }
  }
}
