import { isApiError, type NewTask } from '@tasklane/client'
import { announce } from './announce.js'
import { ui } from './dom.js'
import { FieldError } from './field-error.js'
import type { ListSwitcher } from './list-switcher.js'
import { messageOf, needsToken, refusalOf, type TextField } from './messages.js'
import type { PageApi } from './page-api.js'
import { askForToken } from './token-form.js'
import type { ViewState } from './view-state.js'

/**
 * The create form: a name and a tag, into the list chosen; a refusal said beside its field,
 * the task created announced (and not again as someone else's new task).
 */
export class CreateForm {
  /** The form's fields, each with its message beside it. */
  readonly #fields: Partial<Record<TextField, FieldError>> = {
    name: new FieldError(ui.createName, ui.createNameError),
    tag: new FieldError(ui.createTag, ui.createTagError),
  }

  constructor(
    readonly api: PageApi,
    readonly state: ViewState,
    readonly lists: ListSwitcher,
    /** A create was refused for want of a right (403): the rights are read again. */
    readonly refused: () => void,
  ) {
    ui.createForm.addEventListener('submit', async (event) => {
      event.preventDefault()
      await this.#submit()
    })
  }

  /** Clears what the form said of the last task sent. */
  clearMessages(): void {
    ui.createError.textContent = ''
    for (const field of Object.values(this.#fields)) field?.clear()
  }

  async #submit(): Promise<void> {
    this.clearMessages()
    const name = ui.createName.value
    const newTag = ui.createTag.value
    const listId = this.lists.chosen
    const task: NewTask = {
      name,
      ...(newTag === '' ? {} : { tag: newTag }),
      ...(listId === undefined ? {} : { listId }),
    }
    try {
      const made = await this.api.client.createTask(task)
      this.state.created.add(made.id)
      // Ready for the next task: a tag left in its field would go with it unseen.
      ui.createName.value = ''
      ui.createTag.value = ''
      announce(`Created task #${made.id}: ${made.name}`)
    } catch (error) {
      if (needsToken(error)) {
        askForToken(error)
        return
      }
      if (isApiError(error) && error.status === 403) this.refused()
      // A refusal of what was typed is said in words beside its field (role="alert", and
      // the field's description); the server's own words when they are not known.
      const refusal =
        isApiError(error) && error.status === 400
          ? refusalOf(error.message, { name, tag: newTag })
          : { field: undefined, text: messageOf(error) }
      const beside = refusal.field === undefined ? undefined : this.#fields[refusal.field]
      if (beside === undefined) ui.createError.textContent = refusal.text
      else {
        beside.show(refusal.text)
        beside.input.focus()
        return
      }
    }
    ui.createName.focus()
  }
}
