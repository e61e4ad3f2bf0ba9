/**
 * A field's own message, shown beside it: the field is `aria-invalid` and described by the
 * message (its `aria-describedby`, set in the markup), which a screen reader reads with it.
 * Typing in the field clears it: the message is about what was there.
 */
export class FieldError {
  constructor(
    readonly input: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement,
    readonly message: HTMLElement,
  ) {
    input.addEventListener('input', () => this.clear())
  }

  show(text: string): void {
    this.message.textContent = text
    this.input.setAttribute('aria-invalid', 'true')
  }

  clear(): void {
    this.message.textContent = ''
    this.input.removeAttribute('aria-invalid')
  }
}
