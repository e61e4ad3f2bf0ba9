import type { Task } from '@tasklane/contract'
import type { RowStatus } from './tables.js'

/** A task as the reads select it: `tag` is null when the task has none. */
export interface TaskRow {
  readonly id: number
  readonly name: string
  readonly tag: string | null
  readonly status: RowStatus
  readonly version: number
  readonly created_at: number
  readonly updated_at: number
}

/** A row as the change feed reads it: its latest change, and the row before that change. */
export interface ChangeRow extends TaskRow {
  readonly seq: number
  readonly prev_seq: number
  readonly prev_tag: string | null
  readonly prev_status: RowStatus | null
}

/** The columns of a TaskRow, in the order the reads select them. */
export const TASK_COLUMNS = [
  'id',
  'name',
  'tag',
  'status',
  'version',
  'created_at',
  'updated_at',
] as const

/** The columns of a ChangeRow, in the order the change feed selects them. */
export const CHANGE_COLUMNS = [
  ...TASK_COLUMNS,
  'seq',
  'prev_seq',
  'prev_tag',
  'prev_status',
] as const

/** A millisecond timestamp as the API writes it: RFC 3339, UTC, with milliseconds. */
export const timestamp = (ms: number): string => new Date(ms).toISOString()

/**
 * A live task's row as the API returns it: no `tag` key when the task has none. Number():
 * a driver may hand a bigint over as a string; ids, versions and times stay below 2^53.
 */
export function toTask(row: TaskRow): Task {
  const id = Number(row.id)
  const status = row.status === 'done' ? 'done' : 'open'
  const version = Number(row.version)
  const createdAt = timestamp(Number(row.created_at))
  const updatedAt = timestamp(Number(row.updated_at))
  return row.tag === null
    ? { id, name: row.name, status, version, createdAt, updatedAt }
    : { id, name: row.name, tag: row.tag, status, version, createdAt, updatedAt }
}
