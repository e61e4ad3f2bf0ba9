import type { Task } from '@tasklane/client'
import { announce } from './announce.js'
import type { LiveWindows } from './live-window.js'
import { keyboardMove, standing } from './manual-order.js'
import { READ_ONLY_WORDS } from './messages.js'
import type { OwnWrites } from './own-writes.js'
import type { PageApi } from './page-api.js'
import type { Place } from './planning-api.js'
import { sendMove } from './task-actions.js'
import type { TaskChanges } from './task-changes.js'
import type { TaskList } from './task-list.js'
import type { TaskView } from './task-view.js'
import type { ViewState } from './view-state.js'

/** What a move in the manual order touches. */
export interface TaskMovesParts {
  readonly api: PageApi
  readonly state: ViewState
  readonly own: OwnWrites
  readonly windows: LiveWindows
  readonly list: TaskList
  readonly view: TaskView
  readonly changes: TaskChanges
}

/** Moves in the manual order: by drag and drop, and by Alt+↑/↓ on the focused task. */
export class TaskMoves {
  constructor(readonly parts: TaskMovesParts) {}

  /**
   * Moves `task` in its list's manual order (Alt+↑/↓, drag and drop), if it is still at the
   * version shown; says where it went through the live region once the server has answered.
   */
  move(task: Task, place: Place): void {
    const { api, state, own, view, changes } = this.parts
    if (own.inFlight(task.id) !== undefined || !this.#reorderable()) return
    state.notices.delete(task.id)
    state.moving.add(task.id)
    own.begin(task.id, task)
    void sendMove(api.client, api.planning, task, place).then((outcome) => {
      state.moving.delete(task.id)
      changes.settle(task, outcome, () => {
        view.render()
        const { shown } = state
        const beside = shown.find((t) => t.id === ('before' in place ? place.before : place.after))
        const where = `${'before' in place ? 'before' : 'after'} “${beside?.name ?? 'the task'}”`
        announce(`Moved “${task.name}” ${where}: ${standing(shown, task)} in its list.`)
      })
    })
    view.render()
  }

  /** Alt+↑/↓ on a task: it trades places with the task shown above or below it. */
  moveFocused(direction: 'up' | 'down'): void {
    const row = this.parts.list.focusedRow
    if (row === undefined) return
    if (!row.editable) {
      announce(READ_ONLY_WORDS)
      return
    }
    const task = row.task
    if (!this.#reorderable()) return
    const step = keyboardMove(this.parts.state.shown, task, direction)
    if (step.kind === 'edge')
      announce(`“${task.name}” is already ${direction === 'up' ? 'first' : 'last'} in its list.`)
    else this.move(task, step.place)
  }

  /** The list shown is in the manual order, unsearched; else says how to get there. */
  #reorderable(): boolean {
    const view = this.parts.windows.current?.query
    if (view?.order === 'manual' && view.q === undefined) return true
    announce('Choose “My order” (and no search) to move tasks.')
    return false
  }
}
