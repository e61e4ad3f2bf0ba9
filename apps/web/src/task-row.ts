import type { Task } from '@tasklane/client'
import { type SaveTask, TaskEditor } from './task-editor.js'

/** What a row shows: the task, whether a change of it is being sent, and a notice. */
export interface Row {
  readonly task: Task
  readonly busy: 'saving' | 'deleting' | undefined
  readonly notice: string | undefined
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

/**
 * One task as a list item, built once and then updated in place, so that the focus and an
 * open editor survive the live updates: a checkbox (done or open, named by the task's
 * name), the name, its tag (a button that filters the list by it) and id, Edit and Delete,
 * and a notice. Text only, never HTML.
 */
export class TaskRow {
  readonly li = document.createElement('li')
  readonly check = Object.assign(element('input', 'done'), { type: 'checkbox' })
  readonly #name = element('span', 'name')
  readonly #tag = element('button', 'tag')
  readonly #id = element('span', 'id')
  readonly #state = element('span', 'busy')
  readonly #notice = element('p', 'notice')
  readonly editButton: HTMLButtonElement
  #editor: TaskEditor | undefined
  #row: Row | undefined

  constructor(readonly id: number) {
    const nameId = `name-${id}`
    this.li.dataset.id = String(id)
    this.li.className = 'task'
    this.#name.id = nameId
    this.check.dataset.action = 'toggle'
    this.check.setAttribute('aria-labelledby', nameId)
    this.#id.textContent = `#${id}`
    this.#tag.type = 'button'
    this.#tag.dataset.action = 'filter-tag'
    this.editButton = button('Edit', 'edit', nameId)
    const main = element('div', 'main')
    const meta = element('span', 'meta')
    meta.append(this.#tag, this.#id, this.#state)
    main.append(this.#name, meta, this.#notice)
    const actions = element('div', 'actions')
    actions.append(this.editButton, button('Delete', 'delete', nameId))
    this.li.append(this.check, main, actions)
  }

  /** The task as the row shows it now. */
  get task(): Task {
    return (this.#row as Row).task
  }

  /** Shows `row`, touching only what changed. */
  update(row: Row): void {
    const { task, busy, notice } = row
    if (task.name !== this.#name.textContent) this.#name.textContent = task.name
    this.#tag.textContent = task.tag ?? ''
    this.#tag.hidden = task.tag === undefined
    // The visible tag starts the name, as a spoken command would say it.
    this.#tag.setAttribute('aria-label', `${task.tag ?? ''}: show only this tag`)
    const done = task.status === 'done'
    this.check.checked = done
    this.li.classList.toggle('is-done', done)
    this.li.setAttribute('aria-busy', String(busy !== undefined))
    this.#state.textContent = busy === 'deleting' ? 'Deleting…' : busy === 'saving' ? 'Saving…' : ''
    this.#notice.textContent = notice ?? ''
    this.#row = row
  }

  /**
   * Opens the editor of the name and tag (or puts the focus back in the open one). Edit is
   * hidden meanwhile: Save and Cancel are the editor's buttons.
   */
  edit(save: SaveTask): void {
    if (this.#editor === undefined) {
      const editor = new TaskEditor(this.task, save, (refocus) => {
        editor.form.remove()
        this.#name.hidden = false
        this.editButton.hidden = false
        this.#editor = undefined
        if (refocus) this.editButton.focus()
      })
      this.#editor = editor
      this.#name.hidden = true
      this.#name.after(editor.form)
    }
    this.editButton.hidden = true
    this.#editor.focus()
  }
}
