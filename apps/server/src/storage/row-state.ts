import type { Task, TaskPatch } from '@tasklane/contract'
import { dueParts } from '../domain/due.js'
import { searchText } from '../domain/search-text.js'
import type { IfMatch } from './storage.js'
import type { RowStatus } from './tables.js'
import { storedTask, toTask } from './task-row.js'
import type {
  CurrentRow,
  PlannedRewrite,
  PlannedSeq,
  PlanningFields,
  StoredKey,
} from './write-port.js'

/** A write's planned result, whose seq (and, for a create, id) is known once the plan is applied. */
export interface PlannedWrite {
  readonly seq: PlannedSeq
  readonly task: Omit<Task, 'id'> | undefined
  readonly id: number | { readonly insert: number }
  readonly replayed: boolean
  readonly changed: boolean
}

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
  prev?: {
    seq: PlannedSeq
    tag: string | null
    status: RowStatus
    listId: number
    priority: number
    due: string | null
  }
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
    // null in a merge patch clears a field: a priority's clear value is 0 (none).
    priority: patch.priority === null ? 0 : (patch.priority ?? row.priority),
  }
  const same = (Object.keys(next) as (keyof typeof next)[]).every((key) => next[key] === row[key])
  if (same) return false
  if (next.status !== row.status) row.completedAt = next.status === 'done' ? now : null
  Object.assign(row, next)
  return true
}

/** The fields of a task its history records the changes of. */
const RECORDED = [
  'listId',
  'name',
  'tag',
  'notes',
  'status',
  'priority',
  'due',
  'completedAt',
  'position',
] as const

/**
 * What a change did to a task's fields, `{ field: { from, to } }` as JSON: a field absent
 * before or after is null there. A delete records none (the task's last state is its
 * history's previous entry).
 */
export function changesOf(
  before: Omit<Task, 'id'> | undefined,
  after: Omit<Task, 'id'> | undefined,
): string {
  const changes: Record<string, { from: unknown; to: unknown }> = {}
  if (after !== undefined) {
    for (const field of RECORDED) {
      const from = before?.[field] ?? null
      const to = after[field] ?? null
      if (from !== to) changes[field] = { from, to }
    }
  }
  return JSON.stringify(changes)
}

/** A stored key as the batch knows it: the response its request got. */
export function replayOf(stored: StoredKey): { fingerprint: string; planned: PlannedWrite } {
  return {
    fingerprint: stored.fingerprint,
    planned: {
      seq: { abs: Number(stored.seq) },
      id: Number(stored.targetId),
      task: stored.response === null ? undefined : storedTask(stored.response),
      replayed: true,
      changed: true,
    },
  }
}

/** What a row's next change keeps of it as it was: what the feed's views compare. */
export const priorState = ({ seq, tag, status, listId, priority, due }: RowState) => ({
  seq,
  tag,
  status,
  listId,
  priority,
  due,
})

/** A row the batch changed, in its final state with what its latest change replaced. */
export function rewriteOf(row: RowState): PlannedRewrite | undefined {
  if (row.prev === undefined || !('off' in row.seq)) return undefined
  const { id, expectedSeq, name, tag, status, listId, version, updatedBy, seq, prev } = row
  return {
    id,
    expectedSeq,
    name,
    tag,
    status,
    list_id: listId,
    version,
    updated_by: updatedBy,
    ...planningFields(row),
    off: seq.off,
    prevSeq: prev.seq,
    prevTag: prev.tag,
    prevStatus: prev.status,
    prevListId: prev.listId,
    prevPriority: prev.priority,
    prevDue: prev.due,
  }
}
