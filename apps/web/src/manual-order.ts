import type { Task } from '@tasklane/client'
import type { Place } from './planning-api.js'

/** Byte order of two positions (they are ASCII, so UTF-16 order is byte order). */
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

/** The manual order, as GET /tasks?sort=position answers it: by list, then position, then id. */
export function byPosition(a: Task, b: Task): number {
  return a.listId - b.listId || compare(a.position, b.position) || a.id - b.id
}

/** Where a keyboard move takes a task: the place to send, and the task it goes beside. */
export type KeyboardMove =
  | { readonly kind: 'move'; readonly place: Place; readonly beside: Task }
  /** Nothing to move past: the first (or last) of its list among those shown. */
  | { readonly kind: 'edge' }

/**
 * Alt+↑ puts `task` just before the task shown above it, Alt+↓ just after the one below it,
 * both of its own list (a move never leaves the list; the manual order is per list).
 */
export function keyboardMove(
  shown: readonly Task[],
  task: Task,
  direction: 'up' | 'down',
): KeyboardMove {
  const at = shown.findIndex((t) => t.id === task.id)
  const beside = shown[direction === 'up' ? at - 1 : at + 1]
  if (at === -1 || beside === undefined || beside.listId !== task.listId) return { kind: 'edge' }
  const place = direction === 'up' ? { before: beside.id } : { after: beside.id }
  return { kind: 'move', place, beside }
}

/** Where a task stands among those shown of its list, in words: `2 of 5`. */
export function standing(shown: readonly Task[], task: Task): string {
  const ofList = shown.filter((t) => t.listId === task.listId)
  return `${ofList.findIndex((t) => t.id === task.id) + 1} of ${ofList.length}`
}
