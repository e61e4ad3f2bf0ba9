import type { Task, TaskStatus } from '@tasklane/client'
import type { Place, PlanningApi } from './planning-api.js'
import type { SaveTask } from './task-editor.js'
import { type Row, TaskRow } from './task-row.js'

/** What the rows' controls ask for: each gets the task as the row shows it. */
export interface RowHandlers {
  readonly toggle: (task: Task, done: boolean) => void
  readonly edit: SaveTask
  readonly remove: (task: Task) => void
  /** The row's tag was clicked: show that tag's tasks. */
  readonly filterByTag: (tag: string) => void
  /** A row was dropped beside another (drag and drop): move it there. */
  readonly drop: (task: Task, place: Place) => void
  /** F2 on a task the caller may not change: say so. */
  readonly readOnly: () => void
}

/**
 * The list of tasks: one TaskRow per task, kept across renders and moved only when the order
 * changes, so that the focus stays where it was; when the row holding the focus leaves (it
 * was deleted, or left the filter), the focus goes to the same control of the row that took
 * its place, or to `fallback` when the list is empty.
 */
export class TaskList {
  readonly #rows = new Map<number, TaskRow>()
  /** The row being dragged, if one is. */
  #dragged: TaskRow | undefined

  constructor(
    readonly list: HTMLOListElement,
    readonly handlers: RowHandlers,
    readonly fallback: HTMLElement,
    readonly planning: PlanningApi,
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
      if (action.dataset.action === 'edit') row.edit(handlers.edit, planning)
      if (action.dataset.action === 'delete') handlers.remove(row.task)
      const { tag } = row.task
      if (action.dataset.action === 'filter-tag' && tag !== undefined) handlers.filterByTag(tag)
    })
    list.addEventListener('keydown', (event) => {
      const row = this.#rowOf(event.target)
      if (row === undefined || event.key !== 'F2') return
      event.preventDefault()
      if (row.editable) row.edit(handlers.edit, planning)
      else handlers.readOnly()
    })
    this.#listenForDrags()
  }

  /** Drag and drop by a row's handle: dropped on the upper half of a row, before it; else after. */
  #listenForDrags(): void {
    const clear = () => {
      for (const li of this.list.querySelectorAll('.drop-before, .drop-after'))
        li.classList.remove('drop-before', 'drop-after')
    }
    const placeOf = (event: DragEvent): { row: TaskRow; before: boolean } | undefined => {
      const row = this.#rowOf(event.target)
      if (row === undefined || this.#dragged === undefined || row === this.#dragged)
        return undefined
      const box = row.li.getBoundingClientRect()
      return { row, before: event.clientY < box.top + box.height / 2 }
    }
    this.list.addEventListener('dragstart', (event) => {
      const row = this.#rowOf(event.target)
      if (row === undefined || event.target !== row.handle) return
      this.#dragged = row
      event.dataTransfer?.setData('text/plain', String(row.id))
      if (event.dataTransfer !== null) event.dataTransfer.effectAllowed = 'move'
      event.dataTransfer?.setDragImage(row.li, 16, 16)
      row.li.classList.add('is-dragged')
    })
    this.list.addEventListener('dragover', (event) => {
      const place = placeOf(event)
      if (place === undefined) return
      event.preventDefault()
      clear()
      place.row.li.classList.add(place.before ? 'drop-before' : 'drop-after')
    })
    this.list.addEventListener('drop', (event) => {
      const place = placeOf(event)
      const dragged = this.#dragged
      clear()
      if (place === undefined || dragged === undefined) return
      event.preventDefault()
      const id = place.row.id
      this.handlers.drop(dragged.task, place.before ? { before: id } : { after: id })
    })
    this.list.addEventListener('dragend', () => {
      clear()
      this.#dragged?.li.classList.remove('is-dragged')
      this.#dragged = undefined
    })
  }

  /** The task of the row that holds the focus (the row itself, or a control in it). */
  get focusedTask(): Task | undefined {
    return this.#rowOf(document.activeElement)?.task
  }

  /** The row that holds the focus, if any. */
  get focusedRow(): TaskRow | undefined {
    return this.#rowOf(document.activeElement)
  }

  /** Puts the focus on the row `step` rows from the focused one (the first or last when none is). */
  focusRow(step: 1 | -1): void {
    const items = [...this.list.children] as HTMLElement[]
    if (items.length === 0) return
    const at = this.#focusedIndex()
    const to =
      at === undefined
        ? step === 1
          ? 0
          : items.length - 1
        : Math.min(items.length - 1, Math.max(0, at + step))
    items[to]?.focus()
  }

  /** Shows these rows in this order. */
  render(rows: readonly Row[]): void {
    const focused = this.#focusedIndex()
    const active = document.activeElement
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
    // A row moved in the order (Alt+↑) keeps the focus where it was.
    if (
      active instanceof HTMLElement &&
      active !== document.activeElement &&
      this.list.contains(active)
    )
      active.focus()
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
  q,
}: {
  shown: number
  tag: string | undefined
  status: TaskStatus | undefined
  unseen: number
  first: boolean
  /** The words searched for, if any. */
  q?: string | undefined
}): string {
  const matching = q === undefined ? '' : ` matching “${q}”`
  const filter = `${tag === undefined ? '' : ` tagged “${tag}”`}${matching}`
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
