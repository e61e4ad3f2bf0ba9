import type { ChangeType, Task } from '@tasklane/contract'
import { dueParts } from '../domain/due.js'
import type { Change, DueRange } from '../storage/open-storage.js'

/**
 * Which tasks a subscriber follows: all of them, or those with a tag, a status, a priority,
 * due in a range of days (counted in a zone: list-filter.ts), in a list.
 */
export interface FeedFilter {
  readonly tag?: string | undefined
  readonly status?: 'open' | 'done' | undefined
  readonly priority?: number | undefined
  readonly due?: DueRange | undefined
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
  /** Where the subscription began (`after`): the tasks made up to here it may hold. */
  readonly after: number
  /**
   * The tasks made after `after` that this subscriber was sent and holds (not sent as
   * deleted since), kept up to date by changeType: a filtered view sends `deleted` for a
   * task made later only if it is here. Bounded by what the subscriber itself holds.
   */
  readonly held: Set<number>
}

/** Whether the view is every task (no filter of its own, and every list). */
export const unfiltered = (filter: FeedFilter) =>
  filter.tag === undefined &&
  filter.status === undefined &&
  filter.priority === undefined &&
  filter.due === undefined &&
  filter.list === undefined &&
  filter.lists === undefined

/** Whether a task due `due` (undefined: undated) is due in `range`, as GET /tasks counts it. */
export function dueIn(range: DueRange, due: string | undefined): boolean {
  if (due === undefined) return false
  const { day, at } = dueParts(due)
  if (day !== null) {
    return (
      (range.fromDay === undefined || day >= range.fromDay) &&
      (range.toDay === undefined || day <= range.toDay)
    )
  }
  return (
    (range.fromAt === undefined || (at as number) >= range.fromAt) &&
    (range.toAt === undefined || (at as number) < range.toAt)
  )
}

/** A task's state as a view compares it; `planning` undefined: its priority and due unknown. */
interface ViewedState {
  readonly tag?: string | undefined
  readonly status: 'open' | 'done'
  readonly listId: number
  readonly planning?: { readonly priority: number; readonly due?: string | undefined } | undefined
}

/** Whether the view holds a task in `state`; undefined when that turns on what is unknown. */
function matches(filter: FeedFilter, { tag, status, listId, planning }: ViewedState) {
  const plain =
    (filter.tag === undefined || filter.tag === tag) &&
    (filter.status === undefined || filter.status === status) &&
    (filter.list === undefined || filter.list === listId) &&
    (filter.lists === undefined || filter.lists.has(listId))
  if (!plain || (filter.priority === undefined && filter.due === undefined)) return plain
  if (planning === undefined) return undefined
  return (
    (filter.priority === undefined || filter.priority === planning.priority) &&
    (filter.due === undefined || dueIn(filter.due, planning.due))
  )
}

/** A task after a change, as a view compares it. */
const viewed = (task: Task): ViewedState => ({ ...task, planning: task })

/**
 * What a change is for one subscriber's view, or undefined when the view does not see it.
 * Unfiltered: deleted, or created (the change made the task) or updated. Filtered, the view
 * stays exact (a Kubernetes watch with a selector). Where the subscriber holds the task's
 * state before the change (the change was committed after the previous read, `seen`, and
 * the change before it was read already, at or below `cursor`), a task that starts matching
 * is created, one that stops is deleted, one that never matched is not sent. Otherwise (the
 * backlog, or a change that superseded others this subscriber never read) the view cannot
 * know whether it held the task: one that matches is created or updated, one that does not
 * is deleted, if the subscriber may hold it (it existed at `after`, or it was sent since).
 */
export function changeType(
  change: Change,
  filter: FeedFilter,
  { cursor, seen, after, held }: Position,
): ChangeType | undefined {
  const upsert = change.prevSeq === 0 ? 'created' : 'updated'
  if (unfiltered(filter)) return change.task === undefined ? 'deleted' : upsert
  const now = change.task !== undefined && matches(filter, viewed(change.task)) === true
  // Unknown (a change from before a view could tell its priority or due) as if unread.
  const before =
    change.seq > seen && change.prevSeq <= cursor
      ? change.prev === undefined
        ? false
        : matches(filter, change.prev)
      : undefined
  if (now) {
    if (change.createdSeq > after) held.add(change.id)
    return before === false ? 'created' : upsert
  }
  if (before === false) return undefined
  // A task made after `after` that this subscriber was never sent is not in the listing it
  // started from either: it cannot hold it, so there is nothing to delete (from after=0, a
  // view that matches nothing sends nothing, however long the backlog).
  if (change.createdSeq > after && !held.delete(change.id)) return undefined
  return 'deleted'
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
