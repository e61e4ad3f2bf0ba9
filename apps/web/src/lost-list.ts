import type { TasklaneClient } from '@tasklane/client'
import { isApiError } from '@tasklane/client'
import { announce } from './announce.js'
import { ui } from './dom.js'
import type { ListSwitcher } from './list-switcher.js'
import type { Window } from './live-window.js'
import type { Rights } from './rights-view.js'

/** What a change of the caller's access touches. */
export interface AccessWatchParts {
  readonly client: () => TasklaneClient
  readonly rights: Rights
  readonly lists: ListSwitcher
  /** The list the view asked for (undefined: all of them). */
  readonly chosen: () => number | undefined
  /** Shows this list's tasks (undefined: all lists), leaving the focus where it is. */
  readonly choose: (list: number | undefined) => void
  /** Renders the tasks again (their controls follow the rights). */
  readonly render: () => void
}

/**
 * The caller's access changing while the page is open (a member removed, a role changed, a
 * list deleted or shared): signs of it make the page read /me and the lists again, then
 * show what the caller may do now. A list lost leaves the switcher; if it was the one shown,
 * the page moves to another list the caller reads (or all lists, if none is left) and says
 * so above the tasks and through the live region.
 */
export class AccessWatch {
  #checking: Promise<void> | undefined
  /** The window last looked at, and the lists its tasks were in. */
  #window: Window | undefined
  #listIds = new Set<number>()

  constructor(readonly parts: AccessWatchParts) {}

  /**
   * The window shown changed. Its list answering 404 means the caller lost it; a list's tasks
   * all leaving the view at once, or tasks of a list the switcher lacks, may mean that the
   * live copy listed again after a change of access (its feed's `reset`): checked.
   */
  windowChanged(window: Window | undefined): void {
    if (window === undefined) return
    const { error, closed, tasks } = window.live
    if (closed) {
      if (window.query.list !== undefined && isApiError(error) && error.status === 404)
        void this.recheck()
      return
    }
    const now = new Set(tasks.map((task) => task.listId))
    const same = window === this.#window
    const left = same && [...this.#listIds].some((id) => !now.has(id))
    const unknown = this.parts.lists.loaded && [...now].some((id) => !this.parts.lists.has(id))
    this.#window = window
    this.#listIds = now
    if (left || unknown) void this.recheck()
  }

  /** A change was refused (403): the caller's rights are read again. */
  refused(): void {
    void this.recheck()
  }

  /** Reads /me and the lists again and shows what changed (one check at a time). */
  recheck(): Promise<void> {
    this.#checking ??= this.#recheck().finally(() => {
      this.#checking = undefined
    })
    return this.#checking
  }

  async #recheck(): Promise<void> {
    const { rights, lists, chosen, choose, render } = this.parts
    const before = lists.all
    const client = this.parts.client()
    const [, read] = await Promise.all([rights.load(client), lists.load(client)])
    render()
    // The lists unread say nothing of what was lost.
    if (!read) return
    const gone = before.filter((list) => !lists.has(list.id))
    const current = chosen()
    const lost = gone.find((list) => list.id === current)
    let text: string
    if (lost !== undefined) {
      const next = lists.all[0]
      choose(next?.id)
      text =
        next === undefined
          ? `The list “${lost.name}” is no longer available to you, and no other list is.`
          : `The list “${lost.name}” is no longer available to you: showing “${next.name}”.`
    } else if (gone.length > 0) {
      const names = gone.map((list) => `“${list.name}”`).join(', ')
      text = `${gone.length === 1 ? 'The list' : 'The lists'} ${names} ${gone.length === 1 ? 'is' : 'are'} no longer available to you.`
    } else return
    ui.listNotice.textContent = text
    announce(text)
  }
}
