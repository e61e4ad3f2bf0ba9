import type { Task } from '@tasklane/client'

/** Tasks a page shows. */
export const PAGE_SIZE = 10

/**
 * How a live page is paged. The page follows one LiveTasks copy, the "window": the newest
 * `limit` tasks of the view (tag, status), newest first. Page 1 is the window's first
 * PAGE_SIZE tasks, so a new task slips in at its top. A later page is anchored at its
 * `before` cursor (keyset, as the server's Link header pages): the first PAGE_SIZE tasks of
 * the window below it, so that new tasks do not shift the page being read; they are only
 * counted. The window is read deep enough to hold the page and one task more (which says
 * that a next page exists); new tasks push old ones out of its bottom, and once it no longer
 * holds what the page needs, a deeper window is read (`grow`).
 */
export interface WindowPage {
  /** The tasks the page shows, newest first: exactly the server's, when the window is caught up. */
  readonly tasks: readonly Task[]
  /** A task exists below the last one shown. */
  readonly hasNext: boolean
  /** Tasks newer than `newestSeen` (those created since page 1 was left); 0 on page 1. */
  readonly unseen: number
  /**
   * Tasks of the view before the page's first: those above its cursor, the new ones left out
   * (they are `unseen`). So the page shows tasks `offset + 1` to `offset + tasks.length`.
   */
  readonly offset: number
  /** The window lacks tasks that this page needs: read a window of this limit. */
  readonly grow: number | undefined
}

/** Where the page stands in the window. */
export interface PagePlace {
  /** The page's cursor: tasks below this id; undefined on page 1. */
  readonly before: number | undefined
  /** The window's limit. */
  readonly limit: number
  /** The window holds `limit` tasks (the view may have more beyond it). */
  readonly full: boolean
  /** The newest id of the view when page 1 was left. */
  readonly newestSeen: number
}

/**
 * The limit of a window that holds the page below `before`: every task of `window` above
 * it, a page, and one more. A later page gets a page of room besides, so that a few new
 * tasks do not make it read again at once.
 */
export function windowLimit(window: readonly Task[], before: number | undefined): number {
  if (before === undefined) return PAGE_SIZE + 1
  return window.filter((task) => task.id >= before).length + 2 * PAGE_SIZE + 1
}

/** The page at `place` of the window's tasks (newest first). */
export function pageOf(window: readonly Task[], place: PagePlace): WindowPage {
  const { before, limit, full, newestSeen } = place
  const below = before === undefined ? window : window.filter((task) => task.id < before)
  const deeper = windowLimit(window, before)
  return {
    tasks: below.slice(0, PAGE_SIZE),
    hasNext: below.length > PAGE_SIZE,
    unseen: before === undefined ? 0 : window.filter((task) => task.id > newestSeen).length,
    offset:
      before === undefined
        ? 0
        : window.filter((task) => task.id >= before && task.id <= newestSeen).length,
    grow: full && below.length <= PAGE_SIZE && deeper > limit ? deeper : undefined,
  }
}
