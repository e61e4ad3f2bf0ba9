import type { Task, TaskPatch } from '@tasklane/contract'
import type { IfMatch } from './storage.js'
import type { RowStatus } from './tables.js'
import { toTask } from './task-row.js'
import type { CurrentRow, PlannedSeq } from './write-port.js'

/** A row as the batch sees it, with the changes of the batch so far. */
export interface RowState {
  readonly id: number
  readonly expectedSeq: number
  readonly createdAt: number
  readonly createdBy: string
  name: string
  tag: string | null
  status: RowStatus
  listId: number
  version: number
  updatedAt: number
  updatedBy: string
  seq: PlannedSeq
  prev?: { seq: PlannedSeq; tag: string | null; status: RowStatus; listId: number }
}

export const matches = (ifMatch: IfMatch | undefined, version: number) =>
  ifMatch === undefined || ifMatch === '*' || ifMatch.includes(version)

/** Whether If-None-Match names this version (`*` names every one). */
export const hits = (ifNoneMatch: IfMatch | undefined, version: number) =>
  ifNoneMatch !== undefined && (ifNoneMatch === '*' || ifNoneMatch.includes(version))

/** A row as read, as the batch starts from it. */
export function rowState(row: CurrentRow): RowState {
  return {
    id: Number(row.id),
    expectedSeq: Number(row.seq),
    createdAt: Number(row.created_at),
    createdBy: row.created_by,
    name: row.name,
    tag: row.tag,
    status: row.status,
    listId: Number(row.list_id),
    version: Number(row.version),
    updatedAt: Number(row.updated_at),
    updatedBy: row.updated_by,
    seq: { abs: Number(row.seq) },
  }
}

/** The task as answered, without its id. */
export function answered(row: Omit<RowState, 'id' | 'expectedSeq' | 'seq'>): Omit<Task, 'id'> {
  const { id: _id, ...task } = toTask({
    id: 0,
    list_id: row.listId,
    name: row.name,
    tag: row.tag,
    status: row.status,
    version: row.version,
    created_at: row.createdAt,
    created_by: row.createdBy,
    updated_at: row.updatedAt,
    updated_by: row.updatedBy,
  })
  return task
}

/** Applies `patch` to `row`; false when it changes nothing. */
export function patched(row: RowState, patch: TaskPatch): boolean {
  const name = patch.name ?? row.name
  const tag = patch.tag === undefined ? row.tag : patch.tag
  const status = patch.status ?? row.status
  const listId = patch.listId ?? row.listId
  if (name === row.name && tag === row.tag && status === row.status && listId === row.listId) {
    return false
  }
  row.name = name
  row.tag = tag
  row.status = status
  row.listId = listId
  return true
}
