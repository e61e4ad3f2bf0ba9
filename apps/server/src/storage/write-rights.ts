// The rights and references a write of a task must pass, as the write algorithm checks
// them: each a plain function of what the batch read.
import { type Decision, decide, isAdmin, type Rights } from '../domain/rights.js'
import type { RowState } from './row-state.js'
import type { TaskWrite, WriteOutcome } from './storage.js'

/** Why a write is refused. */
export type Refusal = Exclude<WriteOutcome, { result: 'written' }>

const NOT_FOUND: Refusal = { result: 'not-found' }

/**
 * Why the caller may not edit in `listId`, or undefined when it may: a list that is gone
 * or hidden from it is not found (the task, or the list it names, as `missing` says).
 */
export function refusedIn(
  rights: Rights,
  listId: number,
  missing: 'task' | 'list',
  lists: ReadonlySet<number>,
): Refusal | undefined {
  const decision: Decision =
    lists.has(listId) || missing === 'task' ? decide(rights, listId, 'edit') : { verdict: 'hidden' }
  switch (decision.verdict) {
    case 'allowed':
      return undefined
    case 'hidden':
      return missing === 'task' ? NOT_FOUND : { result: 'list-not-found', listId }
    case 'forbidden':
      return { result: 'forbidden', listId, role: decision.role, readOnly: decision.readOnly }
  }
}

/** The lists a create without a list may go to, ascending: where the caller's roles are. */
export function candidateLists(
  rights: Rights,
  lists: ReadonlySet<number>,
  firstList: number | undefined,
): number[] {
  const { caller } = rights
  if (!isAdmin(caller)) return [...rights.roles.keys()].sort((a, b) => a - b)
  if (caller.lists !== undefined) return [...lists].sort((a, b) => a - b)
  return firstList === undefined ? [] : [Number(firstList)]
}

/** A move's reference that is not a live task of the target list (nor the moved one itself). */
export function badReference(
  item: Extract<TaskWrite, { kind: 'move' }>,
  listId: number,
  rows: ReadonlyMap<number, RowState>,
): Refusal | undefined {
  const { to } = item
  if (typeof to === 'string') return undefined
  const field = 'before' in to ? 'before' : 'after'
  const id = 'before' in to ? to.before : to.after
  const ref = rows.get(id)
  const stays = ref !== undefined && ref.status !== 'deleted' && ref.listId === listId
  return stays && id !== item.id ? undefined : { result: 'bad-reference', field, id }
}
