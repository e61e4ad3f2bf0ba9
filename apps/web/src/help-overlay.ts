/**
 * The keyboard shortcuts' help: a modal dialog (index.html's #help) opened by `?` or its
 * button, closed by Escape or Close; the focus goes back where it was.
 */
export class HelpOverlay {
  #opener: Element | null = null

  constructor(
    readonly dialog: HTMLDialogElement,
    closeButton: HTMLButtonElement,
  ) {
    closeButton.addEventListener('click', () => dialog.close())
    dialog.addEventListener('close', () => {
      if (this.#opener instanceof HTMLElement && this.#opener.isConnected) this.#opener.focus()
    })
  }

  get isOpen(): boolean {
    return this.dialog.open
  }

  open(): void {
    if (this.dialog.open) return
    this.#opener = document.activeElement
    this.dialog.showModal()
  }
}
