import type { Task, TaskPatch } from '@tasklane/contract'
import { dueParts } from '../domain/due.js'
import { searchText } from '../domain/search-text.js'
import type { IfMatch } from './storage.js'
import type { RowStatus } from './tables.js'
import { toTask } from './task-row.js'
import type { CurrentRow, PlannedSeq, PlanningFields } from './write-port.js'

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
  notes: string | null
  due: string | null
  priority: number
  completedAt: number | null
  position: string
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
    notes: row.notes,
    due: row.due,
    priority: Number(row.priority),
    completedAt: row.completed_at === null ? null : Number(row.completed_at),
    position: row.position ?? '',
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
    notes: row.notes,
    due: row.due,
    priority: row.priority,
    completed_at: row.completedAt,
    position: row.position,
  })
  return task
}

/** A row's planning fields as stored: its due split for sorting and filtering, its words. */
export function planningFields(row: Omit<RowState, 'id' | 'expectedSeq' | 'seq'>): PlanningFields {
  const due = row.due === null ? undefined : dueParts(row.due)
  return {
    notes: row.notes,
    due: row.due,
    due_day: due?.day ?? null,
    due_at: due?.at ?? null,
    due_key: due?.key ?? null,
    priority: row.priority,
    completed_at: row.completedAt,
    position: row.position,
    search: searchText(row.name, row.notes),
  }
}

/**
 * Applies `patch` to `row` (a new list is the caller's to place it in); false when it
 * changes nothing. A task that becomes done is completed `now`; one opened again is not.
 */
export function patched(row: RowState, patch: TaskPatch, now: number): boolean {
  const next = {
    name: patch.name ?? row.name,
    tag: patch.tag === undefined ? row.tag : patch.tag,
    status: patch.status ?? row.status,
    listId: patch.listId ?? row.listId,
    notes: patch.notes === undefined ? row.notes : patch.notes,
    due: patch.due === undefined ? row.due : patch.due,
    priority: patch.priority ?? row.priority,
  }
  const same = (Object.keys(next) as (keyof typeof next)[]).every((key) => next[key] === row[key])
  if (same) return false
  if (next.status !== row.status) row.completedAt = next.status === 'done' ? now : null
  Object.assign(row, next)
  return true
}
