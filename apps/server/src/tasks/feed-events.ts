import type { ChangeType } from '@tasklane/contract'
import type { Change } from '../storage/open-storage.js'

/** Which tasks a subscriber follows: all of them, or those with a tag, a status, in a list. */
export interface FeedFilter {
  readonly tag?: string | undefined
  readonly status?: 'open' | 'done' | undefined
  /** Only tasks of this list (`list=`). */
  readonly list?: number | undefined
  /** Only tasks of the lists the subscriber reads; undefined: of every list (an admin). */
  readonly lists?: ReadonlySet<number> | undefined
}

/** Where a subscriber stands when a read of changes comes back. */
export interface Position {
  /**
   * Where the read started: every change up to here has been sent (or was in the listing
   * the client started from), each task at the change that was its latest when read.
   */
  readonly cursor: number
  /**
   * The newest seq the previous read could see (for the first, the newest when the
   * subscription began). A change above it was committed after every read before this one,
   * so the change before it, if at or below `cursor`, is the state this subscriber was sent.
   */
  readonly seen: number
}

/** Whether the view is every task (no filter of its own, and every list). */
export const unfiltered = (filter: FeedFilter) =>
  filter.tag === undefined &&
  filter.status === undefined &&
  filter.list === undefined &&
  filter.lists === undefined

function matches(
  filter: FeedFilter,
  { tag, status, listId }: { tag?: string | undefined; status: 'open' | 'done'; listId: number },
): boolean {
  return (
    (filter.tag === undefined || filter.tag === tag) &&
    (filter.status === undefined || filter.status === status) &&
    (filter.list === undefined || filter.list === listId) &&
    (filter.lists === undefined || filter.lists.has(listId))
  )
}

/**
 * What a change is for one subscriber's view, or undefined when the view does not see it.
 * Unfiltered: deleted, or created (the change made the task) or updated. Filtered, the view
 * stays exact (a Kubernetes watch with a selector). Where the subscriber holds the task's
 * state before the change (the change was committed after the previous read, `seen`, and
 * the change before it was read already, at or below `cursor`), a task that starts matching
 * is created, one that stops is deleted, one that never matched is not sent. Otherwise (the
 * backlog, or a change that superseded others this subscriber never read) the view cannot
 * know whether it held the task: one that matches is created or updated, one that does not
 * is deleted, if the subscriber may hold it (it existed at the cursor).
 */
export function changeType(
  change: Change,
  filter: FeedFilter,
  { cursor, seen }: Position,
): ChangeType | undefined {
  const upsert = change.prevSeq === 0 ? 'created' : 'updated'
  if (unfiltered(filter)) return change.task === undefined ? 'deleted' : upsert
  const now = change.task !== undefined && matches(filter, change.task)
  const before =
    change.seq > seen && change.prevSeq <= cursor
      ? change.prev !== undefined && matches(filter, change.prev)
      : undefined
  if (now) return before === false ? 'created' : upsert
  if (before === false) return undefined
  // A task made after the cursor was never sent to this subscriber, nor in the listing it
  // started from: it cannot hold it, so there is nothing to delete (from after=0, a view
  // that matches nothing sends nothing).
  return change.createdSeq > cursor ? undefined : 'deleted'
}

/** One change as a Server-Sent Event: its seq (the resume point), its type, its data. */
export function changeEvent(change: Change, type: ChangeType): string {
  const data =
    type === 'deleted'
      ? `{"id":${change.id},"version":${change.version}}`
      : JSON.stringify(change.task)
  return `id: ${change.seq}\nevent: ${type}\ndata: ${data}\n\n`
}

/**
 * The events of `changes` (ascending seqs, one read) for one view at `position`. The read's
 * start, not each change before it, tells what the subscriber holds: a change of the same
 * read may lie between a task's change and the one it superseded, which was never sent.
 */
export function viewEvents(
  changes: readonly Change[],
  filter: FeedFilter,
  position: Position,
): string {
  let text = ''
  for (const change of changes) {
    const type = changeType(change, filter, position)
    if (type !== undefined) text += changeEvent(change, type)
  }
  return text
}
