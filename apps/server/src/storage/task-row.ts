import type { Task } from '@tasklane/contract'
import type { RowStatus } from './tables.js'

/** A task as the reads select it: `tag` is null when the task has none. */
export interface TaskRow {
  readonly id: number
  readonly list_id: number
  readonly name: string
  readonly tag: string | null
  readonly status: RowStatus
  readonly version: number
  readonly created_at: number
  readonly created_by: string
  readonly updated_at: number
  readonly updated_by: string
  readonly notes: string | null
  readonly due: string | null
  readonly priority: number
  readonly completed_at: number | null
  readonly position: string | null
}

/** A row as the change feed reads it: its latest change, and the row before that change. */
export interface ChangeRow extends TaskRow {
  readonly seq: number
  readonly prev_seq: number
  readonly prev_tag: string | null
  readonly prev_status: RowStatus | null
  readonly prev_list_id: number | null
  readonly prev_priority: number | null
  readonly prev_due: string | null
  readonly created_seq: number
  readonly due_day: string | null
  readonly due_at: number | null
}

/** The columns of a TaskRow, in the order the reads select them. */
export const TASK_COLUMNS = [
  'id',
  'list_id',
  'name',
  'tag',
  'status',
  'version',
  'created_at',
  'created_by',
  'updated_at',
  'updated_by',
  'notes',
  'due',
  'priority',
  'completed_at',
  'position',
] as const

/** The columns of a ChangeRow, in the order the change feed selects them. */
export const CHANGE_COLUMNS = [
  ...TASK_COLUMNS,
  'seq',
  'prev_seq',
  'prev_tag',
  'prev_status',
  'prev_list_id',
  'prev_priority',
  'prev_due',
  'created_seq',
  'due_day',
  'due_at',
] as const

/** A millisecond timestamp as the API writes it: RFC 3339, UTC, with milliseconds. */
export const timestamp = (ms: number): string => new Date(ms).toISOString()

/**
 * A live task's row as the API returns it, its keys in the contract's order: no `tag` key
 * when the task has none. Number(): a driver may hand a bigint over as a string; ids,
 * versions and times stay below 2^53.
 */
export function toTask(row: TaskRow): Task {
  const task = {
    id: Number(row.id),
    listId: Number(row.list_id),
    name: row.name,
  } as { -readonly [K in keyof Task]: Task[K] }
  if (row.tag !== null) task.tag = row.tag
  if (row.notes !== null) task.notes = row.notes
  task.status = row.status === 'done' ? 'done' : 'open'
  task.priority = Number(row.priority)
  if (row.due !== null) task.due = row.due
  if (row.completed_at !== null) task.completedAt = timestamp(Number(row.completed_at))
  // A tombstone of a task deleted before positions existed has none: it is never answered.
  task.position = row.position ?? ''
  task.version = Number(row.version)
  task.createdAt = timestamp(Number(row.created_at))
  task.createdBy = row.created_by
  task.updatedAt = timestamp(Number(row.updated_at))
  task.updatedBy = row.updated_by
  return task
}

/**
 * A task as an Idempotency-Key stored its response (without its id), in the contract's key
 * order. Responses stored before lists existed lack the fields lists brought: the task was
 * then in list 1, created and changed by `local`, as the migration to lists recorded it.
 */
export function storedTask(json: string): Omit<Task, 'id'> {
  // Responses stored before planning existed lack its fields: as the migration made them.
  const stored = JSON.parse(json) as Partial<Task> & Pick<Task, 'name' | 'status' | 'version'>
  const { id: _id, ...task } = toTask({
    id: 0,
    list_id: stored.listId ?? 1,
    name: stored.name,
    tag: stored.tag ?? null,
    status: stored.status,
    version: stored.version,
    created_at: Date.parse(stored.createdAt as string),
    created_by: stored.createdBy ?? 'local',
    updated_at: Date.parse(stored.updatedAt as string),
    updated_by: stored.updatedBy ?? 'local',
    notes: stored.notes ?? null,
    due: stored.due ?? null,
    priority: stored.priority ?? 0,
    completed_at: stored.completedAt === undefined ? null : Date.parse(stored.completedAt),
    // A response stored before the manual order existed names no place in it.
    position: stored.position ?? null,
  })
  return task
}
