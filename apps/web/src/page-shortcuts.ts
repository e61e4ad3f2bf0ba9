import { announce } from './announce.js'
import { ui } from './dom.js'
import type { HelpOverlay } from './help-overlay.js'
import { READ_ONLY_WORDS } from './messages.js'
import type { PlanningApi } from './planning-api.js'
import { listenForShortcuts } from './shortcuts.js'
import type { TaskChanges } from './task-changes.js'
import type { TaskList } from './task-list.js'
import type { TaskMoves } from './task-moves.js'

/** What the page's shortcuts act on. */
export interface PageShortcutParts {
  readonly list: TaskList
  readonly changes: TaskChanges
  readonly moves: TaskMoves
  readonly help: HelpOverlay
  readonly planning: PlanningApi
}

/** The page's keyboard shortcuts and the help's button, each on the focused task. */
export function listenForPageShortcuts({
  list,
  changes,
  moves,
  help,
  planning,
}: PageShortcutParts): void {
  ui.helpOpen.addEventListener('click', () => help.open())
  listenForShortcuts(
    {
      step: (step) => list.focusRow(step),
      toggle: () => {
        const row = list.focusedRow
        if (row === undefined) return
        if (row.editable) changes.toggle(row.task, row.task.status !== 'done')
        else announce(READ_ONLY_WORDS)
      },
      edit: () => {
        const row = list.focusedRow
        if (row === undefined) return
        if (row.editable) row.edit((task, patch) => changes.edit(task, patch), planning)
        else announce(READ_ONLY_WORDS)
      },
      move: (direction) => moves.moveFocused(direction),
      help: () => help.open(),
    },
    ui.help,
  )
}
