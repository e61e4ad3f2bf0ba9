import type { Task, TaskPatch } from '@tasklane/client'
import { dueDay } from './due-words.js'
import { FieldError } from './field-error.js'
import type { Refusal, TextField } from './messages.js'
import { messageOf } from './messages.js'
import type { PlanningApi } from './planning-api.js'
import { PRIORITIES } from './priority.js'
import { renderHistory } from './task-history.js'

/**
 * Saves `patch` of `task` as it was when editing started (its version goes as If-Match);
 * resolves to a refusal to show in the editor, which stays open (a name refused, no
 * connection), or to undefined when the editor is to close (saved, or a conflict shown on
 * the row).
 */
export type SaveTask = (task: Task, patch: TaskPatch) => Promise<Refusal | undefined>

type Control = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement

/** `<span class="…">text</span>` */
function span(className: string, text: string): HTMLSpanElement {
  return Object.assign(document.createElement('span'), { className, textContent: text })
}

/**
 * A labelled control with its own message, as the create form has them: the label says
 * which task (for a screen reader; a sighted user sees the row) and, when given, a hint.
 */
function field<C extends Control>(control: C, label: string, taskId: number, hint?: string) {
  const wrap = Object.assign(document.createElement('div'), { className: 'field' })
  const labelElement = Object.assign(document.createElement('label'), { htmlFor: control.id })
  labelElement.append(label, span('visually-hidden', ` of task #${taskId}`))
  if (hint !== undefined) labelElement.append(' ', span('optional', hint))
  const message = Object.assign(document.createElement('p'), {
    id: `${control.id}-error`,
    className: 'error',
  })
  message.setAttribute('role', 'alert')
  control.setAttribute('aria-describedby', message.id)
  wrap.dataset.field = control.id
  wrap.append(labelElement, control, message)
  return { wrap, input: control, error: new FieldError(control, message) }
}

function input(id: string, type: string, value: string): HTMLInputElement {
  return Object.assign(document.createElement('input'), { id, type, value, autocomplete: 'off' })
}

function textarea(id: string, value: string): HTMLTextAreaElement {
  return Object.assign(document.createElement('textarea'), { id, value, rows: 3 })
}

function prioritySelect(id: string, value: number): HTMLSelectElement {
  const select = Object.assign(document.createElement('select'), { id })
  for (const { value: option, name } of PRIORITIES)
    select.append(new Option(name, String(option), false, option === value))
  return select
}

/**
 * A task's details, edited in place: name, tag, notes, due day and priority, with the
 * task's history below them. Enter in a field (Ctrl+Enter in the notes) or Save saves,
 * Escape (or Cancel) cancels, and so does leaving the editor for another part of the page
 * (leaving the window does not): only an explicit save ever sends anything. An emptied tag,
 * notes or due is removed. Unchanged, it closes without sending.
 */
export class TaskEditor {
  readonly form = document.createElement('form')
  readonly #fields: {
    name: ReturnType<typeof field<HTMLInputElement>>
    tag: ReturnType<typeof field<HTMLInputElement>>
    notes: ReturnType<typeof field<HTMLTextAreaElement>>
    due: ReturnType<typeof field<HTMLInputElement>>
    priority: ReturnType<typeof field<HTMLSelectElement>>
  }
  /** A message that is no field's: the server unreachable, say. */
  readonly #error = document.createElement('p')
  #saving = false

  constructor(
    /** The task as shown when editing started. */
    readonly task: Task,
    save: SaveTask,
    planning: PlanningApi,
    /** Closes the editor; `refocus`: the focus was in it and goes back to the row. */
    close: (refocus: boolean) => void,
  ) {
    const id = `edit-${task.id}`
    this.#fields = {
      name: field(input(`${id}-name`, 'text', task.name), 'Name', task.id),
      tag: field(input(`${id}-tag`, 'text', task.tag ?? ''), 'Tag', task.id, '(empty: none)'),
      notes: field(textarea(`${id}-notes`, task.notes ?? ''), 'Notes', task.id, '(empty: none)'),
      due: field(input(`${id}-due`, 'date', dueDay(task.due)), 'Due', task.id, '(empty: none)'),
      priority: field(prioritySelect(`${id}-priority`, task.priority), 'Priority', task.id),
    }
    Object.assign(this.#error, { id: `${id}-error`, className: 'error' })
    this.#error.setAttribute('role', 'alert')
    const saveButton = Object.assign(document.createElement('button'), { type: 'submit' })
    saveButton.textContent = 'Save'
    const cancel = Object.assign(document.createElement('button'), { type: 'button' })
    cancel.textContent = 'Cancel'
    cancel.className = 'secondary'
    this.form.className = 'editor'
    this.form.noValidate = true
    const { name, tag, notes, due, priority } = this.#fields
    this.form.append(
      name.wrap,
      tag.wrap,
      due.wrap,
      priority.wrap,
      notes.wrap,
      saveButton,
      cancel,
      this.#error,
      this.#history(planning),
    )

    cancel.addEventListener('click', () => close(true))
    this.form.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
        event.preventDefault()
        this.form.requestSubmit()
      }
      if (event.key !== 'Escape' || this.#saving) return
      event.preventDefault()
      close(true)
    })
    this.form.addEventListener('focusout', () => {
      // Where the focus went is known once it got there; the whole window losing it (another
      // window, a dialog) is not leaving the editor.
      setTimeout(() => {
        if (this.#saving || !document.hasFocus() || !this.form.isConnected) return
        if (!this.form.contains(document.activeElement)) close(false)
      })
    })
    this.form.addEventListener('submit', async (event) => {
      event.preventDefault()
      if (this.#saving) return
      const patch = this.#patch()
      if (Object.keys(patch).length === 0) {
        close(true)
        return
      }
      this.#setSaving(true)
      const refusal = await save(task, patch)
      this.#setSaving(false)
      if (refusal === undefined) {
        close(this.form.contains(document.activeElement))
        return
      }
      const beside = refusal.field === undefined ? undefined : this.#fields[refusal.field]
      if (beside === undefined) this.#error.textContent = refusal.text
      else beside.error.show(refusal.text)
      ;(beside ?? this.#fields.name).input.focus()
    })
  }

  /** The task's history, read now: a heading and a list, or why it could not be read. */
  #history(planning: PlanningApi): HTMLElement {
    const section = Object.assign(document.createElement('section'), { className: 'history' })
    const headingId = `edit-${this.task.id}-history`
    const heading = Object.assign(document.createElement('h3'), {
      id: headingId,
      textContent: 'History',
    })
    const list = document.createElement('ol')
    list.setAttribute('aria-labelledby', headingId)
    const state = Object.assign(document.createElement('p'), {
      className: 'state',
      textContent: 'Loading the history…',
    })
    section.append(heading, state, list)
    planning.history(this.task.id).then(
      (entries) => {
        state.textContent = entries.length === 0 ? 'No changes recorded.' : ''
        renderHistory(list, entries)
      },
      (error: unknown) => {
        state.textContent = `Could not read the history: ${messageOf(error)}`
      },
    )
    return section
  }

  /** What the fields change; an emptied tag, notes or due is null (removed). */
  #patch(): TaskPatch {
    const value = (name: TextField) => this.#fields[name].input.value
    const { task } = this
    const patch: TaskPatch = {}
    if (value('name') !== task.name) patch.name = value('name')
    if (value('tag') !== (task.tag ?? '')) patch.tag = value('tag') === '' ? null : value('tag')
    if (value('notes') !== (task.notes ?? ''))
      patch.notes = value('notes') === '' ? null : value('notes')
    if (value('due') !== dueDay(task.due)) patch.due = value('due') === '' ? null : value('due')
    if (Number(value('priority')) !== task.priority) patch.priority = Number(value('priority'))
    return patch
  }

  /** Puts the focus in the name's field, its text selected. */
  focus(): void {
    this.#fields.name.input.focus()
    this.#fields.name.input.select()
  }

  #setSaving(saving: boolean): void {
    this.#saving = saving
    // Read-only rather than disabled: a disabled field would lose the focus.
    for (const { input: control, error } of Object.values(this.#fields)) {
      if (!(control instanceof HTMLSelectElement)) control.readOnly = saving
      if (saving) error.clear()
    }
    this.form.setAttribute('aria-busy', String(saving))
    if (saving) this.#error.textContent = ''
  }
}
