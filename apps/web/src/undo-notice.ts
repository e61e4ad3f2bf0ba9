import type { Task } from '@tasklane/client'

/** How long the notice of a delete stays, unless the pointer or the focus is in it. */
export const UNDO_MS = 6000

/**
 * Re-creates a deleted task; resolves to what to say then (`Restored …`), or rejects with a
 * message to show (the notice stays, Undo with it, to try again).
 */
export type Restore = (task: Task) => Promise<string>

/**
 * The notice of the latest delete, at the foot of the window: `Deleted “Write docs”.` with
 * Undo for a few seconds, which re-creates the task through the API. The API has no
 * undelete (a deleted id is never used again), so the notice says that it comes back as a
 * new task. The time stops while the pointer is over it or the focus is in it (WCAG 2.2.1),
 * so that it never vanishes under a hand about to press Undo. A newer delete takes its place.
 */
export class UndoNotice {
  #task: Task | undefined
  #timer: ReturnType<typeof setTimeout> | undefined
  #held = { pointer: false, focus: false }
  #restoring = false

  constructor(
    readonly box: HTMLElement,
    readonly text: HTMLElement,
    readonly button: HTMLButtonElement,
    restore: Restore,
    /** Where the focus goes when the notice leaves while holding it. */
    readonly fallback: HTMLElement,
    /** Says something through the page's live region. */
    readonly announce: (text: string) => void,
  ) {
    button.addEventListener('click', async () => {
      const task = this.#task
      if (task === undefined || this.#restoring) return
      this.#restoring = true
      button.setAttribute('aria-disabled', 'true')
      try {
        this.#say(await restore(task), false)
      } catch (problem) {
        this.#say(problem instanceof Error ? problem.message : String(problem), true)
      } finally {
        this.#restoring = false
        button.removeAttribute('aria-disabled')
      }
    })
    box.addEventListener('pointerenter', () => this.#hold('pointer', true))
    box.addEventListener('pointerleave', () => this.#hold('pointer', false))
    box.addEventListener('focusin', () => this.#hold('focus', true))
    box.addEventListener('focusout', () => this.#hold('focus', false))
  }

  /** Shows the notice of `task`, just deleted, with Undo. */
  deleted(task: Task): void {
    this.#say(`Deleted “${task.name}”. Undo brings it back as a new task.`, true, task)
    this.announce(`Deleted “${task.name}”. Undo, after the list, brings it back as a new task.`)
  }

  /** Shows `text`, with Undo or without, for the notice's time. */
  #say(text: string, undoable: boolean, task = this.#task): void {
    this.#task = task
    const hadFocus = this.box.contains(document.activeElement)
    this.text.textContent = text
    this.button.hidden = !undoable
    this.box.hidden = false
    // The button leaves under the focus once the task is back: the list's heading takes it.
    if (!undoable && hadFocus) this.fallback.focus()
    if (!undoable) this.announce(text)
    this.#restart()
  }

  #hold(what: 'pointer' | 'focus', held: boolean): void {
    this.#held[what] = held
    this.#restart()
  }

  #restart(): void {
    clearTimeout(this.#timer)
    if (this.#held.pointer || this.#held.focus || this.box.hidden) return
    this.#timer = setTimeout(() => this.#close(), UNDO_MS)
  }

  #close(): void {
    this.box.hidden = true
    this.#task = undefined
  }
}
