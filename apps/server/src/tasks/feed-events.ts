import type { ChangeType } from '@tasklane/contract'
import type { Change } from '../storage/index.js'

/** Which tasks a subscriber follows: all of them, or those with a tag and/or a status. */
export interface FeedFilter {
  readonly tag?: string | undefined
  readonly status?: 'open' | 'done' | undefined
}

/** Where a subscriber stands when it meets a change. */
export interface Position {
  /** Every change up to here has been sent (or was in the listing the client started from). */
  readonly cursor: number
  /**
   * The newest seq when the subscription began: changes up to it are the backlog, which a
   * filtered view cannot know the earlier state of; later ones are live.
   */
  readonly liveFrom: number
}

const unfiltered = (filter: FeedFilter) => filter.tag === undefined && filter.status === undefined

function matches(filter: FeedFilter, tag: string | undefined, status: 'open' | 'done'): boolean {
  return (
    (filter.tag === undefined || filter.tag === tag) &&
    (filter.status === undefined || filter.status === status)
  )
}

/**
 * What a change is for one subscriber's view, or undefined when the view does not see it.
 * Unfiltered: deleted, or created (the change made the task) or updated. Filtered, the view
 * stays exact (a Kubernetes watch with a selector): in the backlog, a task that matches is
 * created or updated and one that does not is deleted (the view cannot know whether it
 * matched before); live, where the subscriber holds the task's state before the change
 * (`prevSeq` at or below its cursor), a task that starts matching is created, one that
 * stops is deleted, one that never matched is not sent; where it does not (several changes
 * were compacted into one), as in the backlog.
 */
export function changeType(
  change: Change,
  filter: FeedFilter,
  { cursor, liveFrom }: Position,
): ChangeType | undefined {
  const upsert = change.prevSeq === 0 ? 'created' : 'updated'
  if (unfiltered(filter)) return change.task === undefined ? 'deleted' : upsert
  const now = change.task !== undefined && matches(filter, change.task.tag, change.task.status)
  const before =
    change.seq > liveFrom && change.prevSeq <= cursor
      ? change.prev !== undefined && matches(filter, change.prev.tag, change.prev.status)
      : undefined
  if (now) return before === false ? 'created' : upsert
  return before === false ? undefined : 'deleted'
}

/** One change as a Server-Sent Event: its seq (the resume point), its type, its data. */
export function changeEvent(change: Change, type: ChangeType): string {
  const data =
    type === 'deleted'
      ? `{"id":${change.id},"version":${change.version}}`
      : JSON.stringify(change.task)
  return `id: ${change.seq}\nevent: ${type}\ndata: ${data}\n\n`
}

/** The events of `changes` (ascending seqs) for one view, from `position` on. */
export function viewEvents(
  changes: readonly Change[],
  filter: FeedFilter,
  position: Position,
): string {
  let text = ''
  let cursor = position.cursor
  for (const change of changes) {
    const type = changeType(change, filter, { cursor, liveFrom: position.liveFrom })
    if (type !== undefined) text += changeEvent(change, type)
    cursor = change.seq
  }
  return text
}
