import type { Task, TaskStatus } from '@tasklane/client'
import type { SaveTask } from './task-editor.js'
import { type Row, TaskRow } from './task-row.js'

/** What the rows' controls ask for: each gets the task as the row shows it. */
export interface RowHandlers {
  readonly toggle: (task: Task, done: boolean) => void
  readonly edit: SaveTask
  readonly remove: (task: Task) => void
  /** The row's tag was clicked: show that tag's tasks. */
  readonly filterByTag: (tag: string) => void
}

/**
 * The list of tasks: one TaskRow per task, kept across renders and moved only when the order
 * changes, so that the focus stays where it was; when the row holding the focus leaves (it
 * was deleted, or left the filter), the focus goes to the same control of the row that took
 * its place, or to `fallback` when the list is empty.
 */
export class TaskList {
  readonly #rows = new Map<number, TaskRow>()

  constructor(
    readonly list: HTMLOListElement,
    handlers: RowHandlers,
    readonly fallback: HTMLElement,
  ) {
    list.addEventListener('change', (event) => {
      const row = this.#rowOf(event.target)
      if (row !== undefined && event.target === row.check)
        handlers.toggle(row.task, row.check.checked)
    })
    list.addEventListener('click', (event) => {
      const row = this.#rowOf(event.target)
      const action = (event.target as HTMLElement).closest<HTMLElement>('[data-action]')
      if (row === undefined || action === null) return
      if (action.dataset.action === 'edit') row.edit(handlers.edit)
      if (action.dataset.action === 'delete') handlers.remove(row.task)
      const { tag } = row.task
      if (action.dataset.action === 'filter-tag' && tag !== undefined) handlers.filterByTag(tag)
    })
    list.addEventListener('keydown', (event) => {
      const row = this.#rowOf(event.target)
      if (row === undefined || event.key !== 'F2') return
      event.preventDefault()
      row.edit(handlers.edit)
    })
  }

  /** Shows these rows in this order. */
  render(rows: readonly Row[]): void {
    const focused = this.#focusedIndex()
    const wanted = new Set(rows.map((row) => row.task.id))
    for (const [id, row] of this.#rows) {
      if (wanted.has(id)) continue
      row.li.remove()
      this.#rows.delete(id)
    }
    let next = this.list.firstElementChild
    for (const row of rows) {
      let view = this.#rows.get(row.task.id)
      if (view === undefined) {
        view = new TaskRow(row.task.id)
        this.#rows.set(row.task.id, view)
      }
      view.update(row)
      // Only rows out of place move: moving the focused one would blur it.
      if (view.li === next) next = next.nextElementSibling
      else this.list.insertBefore(view.li, next)
    }
    if (focused !== undefined && !this.list.contains(document.activeElement)) {
      // The checkbox, whatever had the focus: a Delete would make a second Enter delete again.
      const stand = this.list.children[Math.min(focused, this.list.children.length - 1)]
      ;(stand?.querySelector('input') ?? this.fallback).focus()
    }
  }

  /** The place of the row that holds the focus, if one does. */
  #focusedIndex(): number | undefined {
    const row = this.#rowOf(document.activeElement)
    return row === undefined ? undefined : [...this.list.children].indexOf(row.li)
  }

  #rowOf(target: EventTarget | null): TaskRow | undefined {
    const li = target instanceof Element ? target.closest('li') : null
    return li === null ? undefined : this.#rows.get(Number(li.dataset.id))
  }
}

/** What the list shows, in words: its count, the filters, or the new tasks waiting on page 1. */
export function describeList({
  shown,
  tag,
  status,
  unseen,
  first,
}: {
  shown: number
  tag: string | undefined
  status: TaskStatus | undefined
  unseen: number
  first: boolean
}): string {
  const filter = tag === undefined ? '' : ` tagged “${tag}”`
  const kind = status === undefined ? '' : `${status} `
  if (unseen > 0 && !first)
    return `${unseen} new ${unseen === 1 ? 'task' : 'tasks'}${filter}: see Newest.`
  if (shown === 0) return first ? `No ${kind}tasks${filter} yet.` : `No more ${kind}tasks${filter}.`
  return `Showing ${shown} ${kind}${shown === 1 ? 'task' : 'tasks'}${filter}.`
}

/**
 * Where the page stands, in words: `Tasks 11–20, more follow`, or `Tasks 21–23 of 23` on
 * the last page (the API counts nothing, but the last page knows the total); nothing for
 * an empty page, which the list's state speaks of.
 */
export function describeRange({
  offset,
  shown,
  hasNext,
}: {
  offset: number
  shown: number
  hasNext: boolean
}): string {
  if (shown === 0) return ''
  const range = shown === 1 ? `Task ${offset + 1}` : `Tasks ${offset + 1}–${offset + shown}`
  return hasNext ? `${range}, more follow` : `${range} of ${offset + shown}`
}
