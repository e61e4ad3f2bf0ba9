import { ui } from './dom.js'

/** Says `text` through the polite live region (new tasks, pages, outcomes of changes). */
export function announce(text: string): void {
  ui.announcer.textContent = text
}
