import type { Task } from '@tasklane/client'
import { dueInFull, dueInWords } from './due-words.js'
import type { PlanningApi } from './planning-api.js'
import { priorityInWords } from './priority.js'
import { type SaveTask, TaskEditor } from './task-editor.js'

/** What a row shows: the task, whether a change of it is being sent, and a notice. */
export interface Row {
  readonly task: Task
  readonly busy: 'saving' | 'deleting' | 'moving' | undefined
  readonly notice: string | undefined
  /** The list is in its manual order: the row can be dragged (and moved by Alt+↑/↓). */
  readonly reorderable: boolean
  /** The caller may change the task (an editor of its list): else the row has no control to. */
  readonly editable: boolean
}

/** The controls of a row, by what they do (`data-action`). */
export type RowAction = 'toggle' | 'filter-tag' | 'edit' | 'delete'

function element<K extends keyof HTMLElementTagNameMap>(tag: K, className: string) {
  const made = document.createElement(tag)
  made.className = className
  return made
}

function button(text: string, action: RowAction, describedBy: string): HTMLButtonElement {
  const made = element('button', 'secondary')
  made.type = 'button'
  made.textContent = text
  made.dataset.action = action
  // Read as "Edit, button, <the task's name>".
  made.setAttribute('aria-describedby', describedBy)
  return made
}

const BUSY_WORDS = { saving: 'Saving…', deleting: 'Deleting…', moving: 'Moving…' } as const

/**
 * One task as a list item, built once and then updated in place, so that the focus and an
 * open editor survive the live updates: a drag handle (in the manual order), a checkbox
 * (done or open, named by the task's name), the name, the first line of its notes, its
 * priority, when it is due in words (marked when overdue), its tag (a button that filters
 * the list by it) and id, Edit and Delete, and a notice. Text only, never HTML. The item
 * itself takes the focus for j/k (tabindex -1), not Tab.
 */
export class TaskRow {
  readonly li = document.createElement('li')
  readonly check = Object.assign(element('input', 'done'), { type: 'checkbox' })
  readonly #name = element('span', 'name')
  readonly #notes = element('span', 'notes-preview')
  readonly #priority = element('span', 'priority')
  readonly #due = element('time', 'due')
  readonly handle = element('span', 'handle')
  readonly #tag = element('button', 'tag')
  readonly #id = element('span', 'id')
  readonly #state = element('span', 'busy')
  /** "Done", where the checkbox that says it is left out (a task the caller only reads). */
  readonly #status = element('span', 'status')
  readonly #notice = element('p', 'notice')
  readonly editButton: HTMLButtonElement
  readonly #deleteButton: HTMLButtonElement
  #editor: TaskEditor | undefined
  /** Closes the open editor without saving. */
  #closeEditor: (() => void) | undefined
  #row: Row | undefined

  constructor(readonly id: number) {
    const nameId = `name-${id}`
    this.li.dataset.id = String(id)
    this.li.className = 'task'
    this.li.tabIndex = -1
    // The pointer's way to reorder; the keyboard's is Alt+↑/↓ (the help lists it).
    this.handle.draggable = true
    this.handle.textContent = '⠿'
    this.handle.title = 'Drag to reorder'
    this.handle.setAttribute('aria-hidden', 'true')
    this.#name.id = nameId
    this.check.dataset.action = 'toggle'
    this.check.setAttribute('aria-labelledby', nameId)
    this.#id.textContent = `#${id}`
    this.#tag.type = 'button'
    this.#tag.dataset.action = 'filter-tag'
    this.editButton = button('Edit', 'edit', nameId)
    this.#deleteButton = button('Delete', 'delete', nameId)
    const main = element('div', 'main')
    const meta = element('span', 'meta')
    meta.append(this.#status, this.#priority, this.#due, this.#tag, this.#id, this.#state)
    main.append(this.#name, this.#notes, meta, this.#notice)
    const actions = element('div', 'actions')
    actions.append(this.editButton, this.#deleteButton)
    this.li.append(this.handle, this.check, main, actions)
  }

  /** The task as the row shows it now. */
  get task(): Task {
    return (this.#row as Row).task
  }

  /** The caller may change the task shown. */
  get editable(): boolean {
    return this.#row?.editable ?? false
  }

  /** Shows `row`, touching only what changed. */
  update(row: Row): void {
    const { task, busy, notice, reorderable, editable } = row
    this.#row = row
    if (task.name !== this.#name.textContent) this.#name.textContent = task.name
    this.#notes.textContent = task.notes?.split('\n', 1)[0] ?? ''
    this.#priority.textContent = priorityInWords(task.priority)
    this.#priority.dataset.priority = String(task.priority)
    this.#showDue(task)
    this.handle.hidden = !reorderable || !editable
    // No control the caller cannot use: an editor open when the right went is closed.
    this.check.hidden = !editable
    this.#deleteButton.hidden = !editable
    this.editButton.hidden = !editable || this.#editor !== undefined
    if (!editable) this.#closeEditor?.()
    this.#tag.textContent = task.tag ?? ''
    this.#tag.hidden = task.tag === undefined
    // The visible tag starts the name, as a spoken command would say it.
    this.#tag.setAttribute('aria-label', `${task.tag ?? ''}: show only this tag`)
    const done = task.status === 'done'
    this.#status.textContent = done && !editable ? 'Done' : ''
    this.check.checked = done
    this.li.classList.toggle('is-done', done)
    this.li.setAttribute('aria-busy', String(busy !== undefined))
    this.#state.textContent = busy === undefined ? '' : BUSY_WORDS[busy]
    this.#notice.textContent = notice ?? ''
  }

  /** When the task is due, in words (the browser's zone and clock), and whether it is overdue. */
  #showDue(task: Task): void {
    const { due } = task
    const words = due === undefined ? undefined : dueInWords(due, { open: task.status === 'open' })
    this.#due.textContent = words?.text ?? ''
    this.#due.dateTime = due ?? ''
    this.#due.title = due === undefined ? '' : dueInFull(due)
    this.li.classList.toggle('is-overdue', words?.overdue ?? false)
  }

  /**
   * Opens the editor of the name, tag, notes, due and priority, with the task's history (or
   * puts the focus back in the open one). Edit is hidden meanwhile: Save and Cancel are the
   * editor's buttons. A task the caller may not change opens none.
   */
  edit(save: SaveTask, planning: PlanningApi): void {
    if (!this.editable) return
    if (this.#editor === undefined) {
      const close = (refocus: boolean) => {
        editor.form.remove()
        this.#name.hidden = false
        this.#notes.hidden = false
        this.editButton.hidden = !this.editable
        this.#editor = undefined
        this.#closeEditor = undefined
        if (refocus && this.editable) this.editButton.focus()
        else if (refocus) this.li.focus()
      }
      const editor = new TaskEditor(this.task, save, planning, close)
      this.#editor = editor
      this.#closeEditor = () => close(editor.form.contains(document.activeElement))
      this.#name.hidden = true
      this.#notes.hidden = true
      this.#name.after(editor.form)
    }
    this.editButton.hidden = true
    this.#editor.focus()
  }
}
