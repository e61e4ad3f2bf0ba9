import type { Task } from '@tasklane/client'
import { announce } from './announce.js'
import { ui } from './dom.js'
import type { LiveWindows, Query, Window } from './live-window.js'
import { byPosition } from './manual-order.js'
import { connectionProblem, messageOf, needsToken } from './messages.js'
import type { Intent, OwnWrites } from './own-writes.js'
import type { PageApi } from './page-api.js'
import { pageOf } from './page-window.js'
import { beforeOf, pageNumber } from './paging.js'
import type { Rights } from './rights-view.js'
import type { TaskList } from './task-list.js'
import { describeList, describeRange } from './task-list.js'
import type { TaskSearch } from './task-search.js'
import { askForToken } from './token-form.js'
import type { ViewState } from './view-state.js'

/** What the view shows from: the page's state, its live windows, rows and search. */
export interface TaskViewParts {
  readonly api: PageApi
  readonly state: ViewState
  readonly windows: LiveWindows
  readonly list: TaskList
  readonly search: TaskSearch
  readonly own: OwnWrites
  /** What the caller may do in each list: the controls shown follow it. */
  readonly rights: Rights
}

/** The highest id among `tasks` (0 for none): the newest. */
export const newestOf = (tasks: readonly Task[]) =>
  tasks.reduce((max, task) => Math.max(max, task.id), 0)

/** The list's heading says its order: newest first, the manual order, or a search. */
function headingOf({ order, q }: Query): string {
  if (q !== undefined) return 'Tasks found'
  return order === 'manual' ? 'Tasks, in my order' : 'Tasks, newest first'
}

/**
 * The tasks as the page shows them: the window's page (or the whole view), the pager, the
 * list's state and the connection's, and the announcement of tasks someone else created.
 */
export class TaskView {
  constructor(readonly parts: TaskViewParts) {}

  /** Shows the window's page: its rows, the pager, the list's state; reads a deeper window when needed. */
  render(): void {
    const { state, windows, list, own, api, rights } = this.parts
    const window = windows.current
    rights.show(state.query.list)
    ui.list.setAttribute('aria-busy', String(windows.loading))
    this.renderConnection()
    const first = pageNumber(state.pager) === 1
    ui.newest.disabled = ui.previous.disabled = first || windows.loading
    ui.next.disabled = true
    if (window === undefined) return
    // A whole view (the manual order, a search) has no pages.
    for (const button of [ui.newest, ui.previous, ui.next])
      button.hidden = window.limit === undefined
    const { live, query: windowQuery, limit } = window
    const { tag, status, list: listId } = windowQuery
    ui.tasksHeading.textContent = headingOf(windowQuery)
    if (live.closed) {
      state.shown = []
      ui.pageRange.textContent = ''
      list.render([])
      if (windows.loading) ui.listState.textContent = 'Loading tasks…'
      else if (!needsToken(live.error))
        ui.listState.textContent = `Could not load the tasks: ${messageOf(live.error)}`
      else if (ui.tokenSection.hidden) askForToken(live.error)
      return
    }
    const matches = (task: Task) =>
      (tag === undefined || task.tag === tag) &&
      (status === undefined || task.status === status) &&
      (listId === undefined || task.listId === listId)
    if (limit === undefined) {
      this.#renderWhole(window, matches)
      return
    }
    const full = live.tasks.length >= limit
    const page = pageOf(own.apply(live.tasks, matches), {
      before: beforeOf(state.pager),
      limit,
      full,
      newestSeen: state.newestSeen,
    })
    state.shown = page.tasks
    this.#renderRows(false)
    this.#announceNew(live.tasks)
    ui.next.disabled = !page.hasNext || windows.loading
    ui.pageRange.textContent = describeRange({
      offset: page.offset,
      shown: state.shown.length,
      hasNext: page.hasNext,
    })
    ui.listState.textContent = windows.loading
      ? 'Loading tasks…'
      : describeList({ shown: state.shown.length, tag, status, unseen: page.unseen, first })
    if (page.grow !== undefined && !windows.loading)
      windows.open(api.client, windowQuery, page.grow, () => this.render())
  }

  /** Says when the live list is not connected (it reconnects by itself meanwhile). */
  renderConnection(): void {
    const { windows } = this.parts
    const { error } = windows
    const closed = windows.current?.live.closed ?? false
    ui.connection.textContent = error === undefined || closed ? '' : connectionProblem(error)
  }

  /** A search was answered (`error` when it failed): its tasks shown, and said. */
  searched(error: unknown): void {
    this.render()
    if (error === undefined) announce(ui.listState.textContent ?? '')
    else if (needsToken(error)) askForToken(error)
    else ui.listNotice.textContent = `Could not search: ${messageOf(error)}`
  }

  #busyOf(id: number, intent: Intent | undefined) {
    return intent === undefined
      ? undefined
      : intent === 'deleting'
        ? 'deleting'
        : this.parts.state.moving.has(id)
          ? 'moving'
          : 'saving'
  }

  /** The rows of the tasks shown. */
  #renderRows(reorderable: boolean): void {
    const { state, list, own, rights } = this.parts
    list.render(
      state.shown.map((task) => ({
        task,
        busy: this.#busyOf(task.id, own.inFlight(task.id)),
        notice: state.notices.get(task.id),
        reorderable,
        editable: rights.canEdit(task.listId),
      })),
    )
  }

  /** A whole view (the manual order, a search): every task of it, no pages. */
  #renderWhole({ live, query: windowQuery }: Window, matches: (task: Task) => boolean): void {
    const { state, windows, search, own } = this.parts
    const { tag, status, q, order } = windowQuery
    const tasks = own.apply(live.tasks, matches)
    state.shown = q === undefined ? tasks.sort(byPosition) : search.ordered(tasks, windowQuery)
    this.#renderRows(order === 'manual' && q === undefined)
    this.#announceNew(live.tasks)
    ui.pageRange.textContent = describeRange({
      offset: 0,
      shown: state.shown.length,
      hasNext: false,
    })
    const searching = search.pending(windowQuery)
    ui.listState.textContent =
      windows.loading || searching
        ? searching
          ? 'Searching…'
          : 'Loading tasks…'
        : describeList({ shown: state.shown.length, tag, status, unseen: 0, first: true, q })
  }

  /** Announces the tasks that someone else created since the last look. */
  #announceNew(tasks: readonly Task[]): void {
    const { state } = this.parts
    const fresh = tasks.filter(
      (task) => task.id > state.announcedUpTo && !state.created.has(task.id),
    )
    state.announcedUpTo = Math.max(state.announcedUpTo, newestOf(tasks))
    const [one] = fresh
    if (fresh.length > 1) announce(`${fresh.length} new tasks.`)
    else if (one !== undefined) announce(`New task: ${one.name}`)
  }
}
