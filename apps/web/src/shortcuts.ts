/** What the page's keyboard shortcuts do (help-overlay lists them). */
export interface ShortcutActions {
  /** j and k: the next or previous task. */
  readonly step: (step: 1 | -1) => void
  /** x: the focused task done, or open again. */
  readonly toggle: () => void
  /** e: the focused task's editor. */
  readonly edit: () => void
  /** Alt+↑ and Alt+↓: the focused task up or down the manual order. */
  readonly move: (direction: 'up' | 'down') => void
  /** ?: the help. */
  readonly help: () => void
}

/** The focus is where keys type text (a field, the notes, a list of options): letters are letters. */
function typing(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false
  if (target.isContentEditable || target instanceof HTMLTextAreaElement) return true
  if (target instanceof HTMLSelectElement) return true
  return (
    target instanceof HTMLInputElement &&
    !['checkbox', 'radio', 'button', 'submit', 'reset'].includes(target.type)
  )
}

/**
 * The shortcuts, on the whole document: j/k, x, e and ? (not while typing, nor with Ctrl,
 * Meta or Alt), and Alt+↑/↓ (not in a field, where the arrows move the caret or the choice);
 * none in an open editor.
 * A modal dialog open (the help) takes every key itself.
 */
export function listenForShortcuts(actions: ShortcutActions, dialog: HTMLDialogElement): void {
  document.addEventListener('keydown', (event) => {
    // An open editor keeps its own keys (Enter saves, Escape cancels): no shortcut acts in it.
    const inEditor = event.target instanceof Element && event.target.closest('form.editor') !== null
    if (dialog.open || event.defaultPrevented || inEditor || typing(event.target)) return
    if (event.altKey && !event.ctrlKey && !event.metaKey) {
      if (event.key !== 'ArrowUp' && event.key !== 'ArrowDown') return
      event.preventDefault()
      actions.move(event.key === 'ArrowUp' ? 'up' : 'down')
      return
    }
    if (event.ctrlKey || event.metaKey || event.altKey) return
    const act: Record<string, (() => void) | undefined> = {
      j: () => actions.step(1),
      k: () => actions.step(-1),
      x: actions.toggle,
      e: actions.edit,
      '?': actions.help,
    }
    const action = act[event.key]
    if (action === undefined) return
    event.preventDefault()
    action()
  })
}
