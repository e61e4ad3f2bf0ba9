import { ui } from './dom.js'
import type { Navigation } from './navigation.js'
import { newestPage } from './paging.js'
import type { ViewState } from './view-state.js'

/**
 * The view asked for: the filter form (tag, status, order), the search box and the list
 * chosen; each change shows the newest page of the new view.
 */
export class ViewFilters {
  constructor(
    readonly state: ViewState,
    readonly navigation: Navigation,
  ) {
    ui.filterForm.addEventListener('submit', (event) => {
      event.preventDefault()
      this.#fromForm({ focus: true })
    })
    // A status applies at once; the focus stays on it, so that the arrow keys go on choosing.
    for (const radio of ui.statuses)
      radio.addEventListener('change', () => this.#fromForm({ focus: false }))
    ui.order.addEventListener('change', () => this.#fromForm({ focus: false }))
    ui.filterClear.addEventListener('click', () => {
      ui.filterForm.reset()
      ui.searchInput.value = ''
      state.query = { ...state.query, q: undefined }
      this.#fromForm({ focus: true })
    })
    ui.searchForm.addEventListener('submit', (event) => {
      event.preventDefault()
      this.#searchFor(ui.searchInput.value)
    })
    // Emptied (Escape in the box, or its clear button): the whole view again.
    ui.searchInput.addEventListener('input', () => {
      if (ui.searchInput.value === '' && state.query.q !== undefined) this.#searchFor('')
    })
  }

  /** A row's tag: the list shows that tag's tasks, as the filter would. */
  filterByTag(tag: string): void {
    ui.filterTag.value = tag
    this.#fromForm({ focus: true })
  }

  /**
   * A list chosen beside the tasks (undefined: all of them): its tasks show, the focus then
   * on the list's heading unless `focus` is false.
   */
  chooseList(list: number | undefined, focus = true): void {
    this.state.query = { ...this.state.query, list }
    this.navigation.go(newestPage(), { filtered: true, focus })
  }

  /** Applies the filters as the form shows them. */
  #fromForm(options: { focus: boolean }): void {
    const status = ui.statuses.find((radio) => radio.checked)?.value
    this.state.query = {
      ...this.state.query,
      tag: ui.filterTag.value === '' ? undefined : ui.filterTag.value,
      status: status === 'open' || status === 'done' ? status : undefined,
      order: ui.order.value === 'manual' ? 'manual' : 'newest',
    }
    this.navigation.go(newestPage(), { ...options, filtered: true })
  }

  /** The search box's words: the tasks found show, in the server's order; none, the whole view. */
  #searchFor(words: string): void {
    const q = words.trim() === '' ? undefined : words.trim()
    if (q === this.state.query.q) return
    this.state.query = { ...this.state.query, q }
    this.navigation.go(newestPage(), { filtered: true })
  }
}
