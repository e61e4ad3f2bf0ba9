import type { Task, TaskPatch } from '@tasklane/client'
import { FieldError } from './field-error.js'
import type { Refusal, TextField } from './messages.js'

/**
 * Saves `patch` of `task` as it was when editing started (its version goes as If-Match);
 * resolves to a refusal to show in the editor, which stays open (a name refused, no
 * connection), or to undefined when the editor is to close (saved, or a conflict shown on
 * the row).
 */
export type SaveTask = (task: Task, patch: TaskPatch) => Promise<Refusal | undefined>

/** `<span class="…">text</span>` */
function span(className: string, text: string): HTMLSpanElement {
  return Object.assign(document.createElement('span'), { className, textContent: text })
}

/**
 * A labelled text field with its own message, as the create form has them: the label says
 * which task (for a screen reader; a sighted user sees the row) and, when given, a hint.
 */
function field(id: string, label: string, taskId: number, value: string, hint?: string) {
  const wrap = Object.assign(document.createElement('div'), { className: 'field' })
  const labelElement = Object.assign(document.createElement('label'), { htmlFor: id })
  labelElement.append(label, span('visually-hidden', ` of task #${taskId}`))
  if (hint !== undefined) labelElement.append(' ', span('optional', hint))
  const input = Object.assign(document.createElement('input'), {
    id,
    type: 'text',
    value,
    autocomplete: 'off',
  })
  const message = Object.assign(document.createElement('p'), {
    id: `${id}-error`,
    className: 'error',
  })
  message.setAttribute('role', 'alert')
  input.setAttribute('aria-describedby', message.id)
  wrap.append(labelElement, input, message)
  return { wrap, input, error: new FieldError(input, message) }
}

/**
 * A task's name and tag, edited in place: Enter (or Save) saves, Escape (or Cancel)
 * cancels, and so does leaving the editor for another part of the page (leaving the window
 * does not): only an explicit save ever sends anything. An empty tag removes the tag.
 * Unchanged, it closes without sending.
 */
export class TaskEditor {
  readonly form = document.createElement('form')
  readonly #fields: Record<TextField, ReturnType<typeof field>>
  /** A message that is no field's: the server unreachable, say. */
  readonly #error = document.createElement('p')
  #saving = false

  constructor(
    /** The task as shown when editing started. */
    readonly task: Task,
    save: SaveTask,
    /** Closes the editor; `refocus`: the focus was in it and goes back to the row. */
    close: (refocus: boolean) => void,
  ) {
    const id = `edit-${task.id}`
    this.#fields = {
      name: field(`${id}-name`, 'Name', task.id, task.name),
      tag: field(`${id}-tag`, 'Tag', task.id, task.tag ?? '', '(empty: none)'),
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
    this.form.append(this.#fields.name.wrap, this.#fields.tag.wrap, saveButton, cancel, this.#error)

    cancel.addEventListener('click', () => close(true))
    this.form.addEventListener('keydown', (event) => {
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

  /** What the fields change: the name, the tag (null when emptied: the tag is removed). */
  #patch(): TaskPatch {
    const name = this.#fields.name.input.value
    const tag = this.#fields.tag.input.value
    const patch: TaskPatch = {}
    if (name !== this.task.name) patch.name = name
    if (tag !== (this.task.tag ?? '')) patch.tag = tag === '' ? null : tag
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
    for (const { input, error } of Object.values(this.#fields)) {
      input.readOnly = saving
      if (saving) error.clear()
    }
    this.form.setAttribute('aria-busy', String(saving))
    if (saving) this.#error.textContent = ''
  }
}
