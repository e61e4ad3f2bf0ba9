import { announce } from './announce.js'
import { ui } from './dom.js'
import type { ListSwitcher } from './list-switcher.js'
import type { LiveWindows } from './live-window.js'
import type { PageApi } from './page-api.js'
import { windowLimit } from './page-window.js'
import { beforeOf, newestPage, nextPage, type Pager, pageNumber, previousPage } from './paging.js'
import type { Rights } from './rights-view.js'
import type { TaskSearch } from './task-search.js'
import { newestOf, type TaskView } from './task-view.js'
import type { ViewState } from './view-state.js'

/** What moving between pages and views touches. */
export interface NavigationParts {
  readonly api: PageApi
  readonly state: ViewState
  readonly windows: LiveWindows
  readonly view: TaskView
  readonly search: TaskSearch
  readonly lists: ListSwitcher
  /** What the caller may do: read (once per credential) before the page says it is ready. */
  readonly rights: Rights
  /** A window arrived (listed, or failed for good): what it says of the caller's access is looked at. */
  readonly arrived: () => void
  /** Clears what the create form said of the last task sent. */
  readonly clearCreateMessages: () => void
}

/** How a move to another page or view ends: where the focus goes, and whether the filters changed. */
export interface GoOptions {
  readonly focus?: boolean
  readonly filtered?: boolean
}

/** Moving between the pages of a view, and to another view (filters, a search, a list). */
export class Navigation {
  constructor(readonly parts: NavigationParts) {}

  /**
   * Shows the page `to` points at, of the filters asked for. The window shown serves it when
   * it is of the same filters and deep enough; else a new one is read meanwhile (the pager
   * waits). Paging and filtering move the focus to the list's heading, so that it is read next.
   */
  go(to: Pager, { focus = true, filtered = false }: GoOptions = {}): void {
    const { api, state, windows, view, search, lists, rights, arrived } = this.parts
    this.parts.clearCreateMessages()
    ui.listNotice.textContent = ''
    state.notices.clear()
    const window = windows.current
    if (pageNumber(state.pager) === 1 && pageNumber(to) > 1)
      state.newestSeen = window?.live.tasks[0]?.id ?? 0
    const arrive = () => {
      if (filtered) state.announcedUpTo = newestOf(windows.current?.live.tasks ?? [])
      state.pager = to
      view.render()
      arrived()
      if (windows.current?.live.closed === false) {
        lists.loadOnce(api.client)
        // Ready once the controls the caller may use show (a listing refused: at once).
        void rights.loadOnce(api.client).then(() => {
          view.render()
          document.documentElement.dataset.ready = 'true'
        })
      } else document.documentElement.dataset.ready = 'true'
      // A failed listing leaves the focus where it is (in the token's field, when one is asked for).
      if (!focus || windows.current?.live.closed) return
      ui.tasksHeading.focus()
      const range = ui.pageRange.textContent
      announce(
        range === '' ? `${ui.listState.textContent}` : `${range}. ${ui.listState.textContent}`,
      )
    }
    const { query } = state
    // The manual order and a search show the whole view, in their order: no pages.
    const whole = query.order === 'manual' || query.q !== undefined
    const limit = whole ? undefined : windowLimit(window?.live.tasks ?? [], beforeOf(to))
    // New words or filters: the search (if any) asked again, of the view as it is now asked.
    if (filtered) search.run(query)
    const deepEnough =
      limit === undefined ? window?.limit === undefined : (window?.limit ?? 0) >= limit
    if (!filtered && window !== undefined && !window.live.closed && deepEnough) {
      arrive()
      return
    }
    windows.open(api.client, query, limit, arrive)
    view.render()
  }

  /** The pager's buttons: the newest page, the previous one, the next one. */
  listenForPager(): void {
    const { state } = this.parts
    ui.newest.addEventListener('click', () => this.go(newestPage()))
    ui.previous.addEventListener('click', () => this.go(previousPage(state.pager)))
    ui.next.addEventListener('click', () => {
      const last = state.shown.at(-1)
      if (last !== undefined) this.go(nextPage(state.pager, last.id))
    })
  }
}
