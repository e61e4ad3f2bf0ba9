import type { Task } from '@tasklane/client'
import type { Query } from './live-window.js'
import { newestPage, type Pager } from './paging.js'

/**
 * What the page holds between renders: the view asked for, the page it is on, the tasks it
 * shows, what it has announced, and what it says on each row. The page's parts share one.
 */
export class ViewState {
  /** The filters asked for (the window shown may still be the previous filters' one). */
  query: Query = {
    list: undefined,
    tag: undefined,
    status: undefined,
    order: 'newest',
    q: undefined,
  }
  pager: Pager = newestPage()
  /** The tasks the page shows now, newest first. */
  shown: readonly Task[] = []
  /** The newest id of the view when page 1 was left: newer ones are counted on later pages. */
  newestSeen = 0
  /** The newest id announced (or listed at first): newer ones are announced as new. */
  announcedUpTo = 0
  /** Tasks this page created: announced as created, not as new. */
  readonly created = new Set<number>()
  /** Tasks whose move is being sent. */
  readonly moving = new Set<number>()
  /** What happened to a row's last change, shown in the row until its next one. */
  readonly notices = new Map<number, string>()
}
