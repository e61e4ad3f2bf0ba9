import type { NewTask, Task, TaskPatch } from '@tasklane/client'
import { announce } from './announce.js'
import { ui } from './dom.js'
import { describeEdit } from './edit-words.js'
import { messageOf, needsToken, type Refusal, refusalOf } from './messages.js'
import type { OwnWrites } from './own-writes.js'
import type { PageApi } from './page-api.js'
import { type Outcome, send } from './task-actions.js'
import type { TaskView } from './task-view.js'
import { askForToken } from './token-form.js'
import { UndoNotice } from './undo-notice.js'
import type { ViewState } from './view-state.js'

/** What a change of a task touches. */
export interface TaskChangesParts {
  readonly api: PageApi
  readonly state: ViewState
  readonly own: OwnWrites
  readonly view: TaskView
  /** A change was refused for want of a right (403): the rights are read again. */
  readonly refused: () => void
}

/**
 * A row's changes: done or open again, an edit, a delete (with its Undo); each laid over the
 * live copy while it is sent, and how it ended said on its row or above the list.
 */
export class TaskChanges {
  readonly #undo: UndoNotice

  constructor(readonly parts: TaskChangesParts) {
    this.#undo = new UndoNotice(
      ui.undo,
      ui.undoText,
      ui.undoButton,
      (task) => this.#restore(task),
      ui.tasksHeading,
      announce,
    )
  }

  /**
   * Shows how a change the page sent ended, on its row or, for a task gone, above the list;
   * `saved` is said when it succeeded.
   */
  settle(task: Task, outcome: Outcome, saved: () => void): void {
    const { own, state, view } = this.parts
    own.end(task.id)
    if (outcome.kind === 'failed' && outcome.status === 403) this.parts.refused()
    if (outcome.kind === 'saved') {
      if (outcome.task === undefined) own.gone(task.id)
      else own.answered(outcome.task)
      saved()
    } else if (outcome.kind === 'conflict') {
      if (outcome.current !== undefined) own.answered(outcome.current)
      const notice = `Not saved: someone else changed this task first, and it now shows their version. ${outcome.message}`
      state.notices.set(task.id, notice)
      announce(notice)
    } else if (outcome.kind === 'gone') {
      own.gone(task.id)
      ui.listNotice.textContent = `Task #${task.id} was deleted by someone else. ${outcome.message}`
      announce(ui.listNotice.textContent)
    } else if (outcome.kind === 'failed') {
      state.notices.set(task.id, `Not saved: ${outcome.message}`)
      announce(`Task #${task.id} not saved: ${outcome.message}`)
    } else {
      askForToken(outcome.error)
    }
    view.render()
  }

  /** The checkbox: done or open again, if the task is still at the version shown. */
  toggle(task: Task, done: boolean): void {
    const { api, own, state, view } = this.parts
    if (own.inFlight(task.id) === undefined) {
      state.notices.delete(task.id)
      const status = done ? 'done' : 'open'
      own.begin(task.id, { ...task, status })
      void send(api.client, task, { status }).then((outcome) =>
        this.settle(task, outcome, () =>
          announce(`Marked “${task.name}” ${done ? 'done' : 'open again'}.`),
        ),
      )
    }
    view.render()
  }

  /**
   * Saves a new name, tag, notes, due or priority (emptied: removed); a refusal or no answer
   * stays in the editor, with what was typed, the refusal in words beside its field.
   */
  async edit(task: Task, patch: TaskPatch): Promise<Refusal | undefined> {
    this.parts.state.notices.delete(task.id)
    const outcome = await send(this.parts.api.client, task, patch)
    if (outcome.kind === 'failed') {
      if (outcome.status === 403) this.parts.refused()
      if (outcome.status !== 400) return { field: undefined, text: outcome.message }
      return refusalOf(outcome.message, {
        name: patch.name,
        tag: patch.tag ?? undefined,
        notes: patch.notes ?? undefined,
      })
    }
    this.settle(task, outcome, () => announce(describeEdit(task, patch)))
    return undefined
  }

  /** Deletes `task`, if it is still at the version shown; the notice offers Undo. */
  remove(task: Task): void {
    const { api, own, state, view } = this.parts
    if (own.inFlight(task.id) !== undefined) return
    state.notices.delete(task.id)
    own.begin(task.id, 'deleting')
    void send(api.client, task, 'delete').then((outcome) =>
      this.settle(task, outcome, () => this.#undo.deleted(task)),
    )
    view.render()
  }

  /**
   * Undo of a delete: the task again, as a new one (the API has no undelete: a deleted id is
   * never used again), with its name, tag and status.
   */
  async #restore(task: Task): Promise<string> {
    const again: NewTask = {
      name: task.name,
      listId: task.listId,
      priority: task.priority,
      ...(task.tag === undefined ? {} : { tag: task.tag }),
      ...(task.notes === undefined ? {} : { notes: task.notes }),
      ...(task.due === undefined ? {} : { due: task.due }),
      ...(task.status === 'done' ? { status: 'done' as const } : {}),
    }
    try {
      const made = await this.parts.api.client.createTask(again)
      this.parts.state.created.add(made.id)
      return `Restored “${made.name}” as task #${made.id}.`
    } catch (error) {
      if (needsToken(error)) askForToken(error)
      throw new Error(`Could not bring “${task.name}” back: ${messageOf(error)}`)
    }
  }
}
