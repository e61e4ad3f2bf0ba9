import type { Task } from '@tasklane/client'

/**
 * Saves a new name for `task` as it was when editing started (its version goes as If-Match);
 * resolves to a message to show in the editor, which stays open (a refused name, no
 * connection), or to undefined when the editor is to close (saved, or a conflict shown on
 * the row).
 */
export type SaveName = (task: Task, name: string) => Promise<string | undefined>

/**
 * A task's name, edited in place: Enter (or Save) saves, Escape (or Cancel) cancels, and so
 * does leaving the editor for another part of the page (leaving the window does not): only
 * an explicit save ever sends anything. Unchanged, it closes without sending.
 */
export class RenameEditor {
  readonly form = document.createElement('form')
  readonly input = document.createElement('input')
  readonly #error = document.createElement('p')
  #saving = false

  constructor(
    /** The task as shown when editing started. */
    readonly task: Task,
    save: SaveName,
    /** Closes the editor; `refocus`: the focus was in it and goes back to the row. */
    close: (refocus: boolean) => void,
  ) {
    const id = `rename-${task.id}`
    const label = document.createElement('label')
    label.htmlFor = id
    label.className = 'visually-hidden'
    label.textContent = `New name for task #${task.id}`
    Object.assign(this.input, { id, type: 'text', value: task.name, autocomplete: 'off' })
    this.input.setAttribute('aria-describedby', `${id}-error`)
    Object.assign(this.#error, { id: `${id}-error`, className: 'error' })
    this.#error.setAttribute('role', 'alert')
    const saveButton = Object.assign(document.createElement('button'), { type: 'submit' })
    saveButton.textContent = 'Save'
    const cancel = Object.assign(document.createElement('button'), { type: 'button' })
    cancel.textContent = 'Cancel'
    cancel.className = 'secondary'
    this.form.className = 'rename'
    this.form.noValidate = true
    this.form.append(label, this.input, saveButton, cancel, this.#error)

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
      const name = this.input.value
      if (name === task.name) {
        close(true)
        return
      }
      this.#setSaving(true)
      const problem = await save(task, name)
      this.#setSaving(false)
      if (problem === undefined) {
        close(this.form.contains(document.activeElement))
        return
      }
      this.#error.textContent = problem
      this.input.focus()
    })
  }

  /** Puts the focus in the field, its text selected. */
  focus(): void {
    this.input.focus()
    this.input.select()
  }

  #setSaving(saving: boolean): void {
    this.#saving = saving
    // Read-only rather than disabled: a disabled field would lose the focus.
    this.input.readOnly = saving
    this.form.setAttribute('aria-busy', String(saving))
    if (saving) this.#error.textContent = ''
  }
}
