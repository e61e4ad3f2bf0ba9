/**
 * One read shared by every caller that asks while it has not been sent yet: a caller never
 * gets the answer of a read sent before it asked (which could miss a change acknowledged
 * just before), and however many ask at once, at most one read is in flight and one
 * gathers callers for when it ends. For a value every request needs fresh (the newest seq,
 * which PostgreSQL answers in a round trip), this turns N round trips into about two.
 */
export class SharedRead<T> {
  readonly #read: () => Promise<T>
  #inFlight: Promise<unknown> | undefined
  #gathering: Promise<T> | undefined

  constructor(read: () => Promise<T>) {
    this.#read = read
  }

  /** A read sent after this call. */
  get(): Promise<T> {
    if (this.#gathering !== undefined) return this.#gathering
    const previous = this.#inFlight
    const next = (previous === undefined ? Promise.resolve() : previous).then(() => {
      // Sent now: later callers gather for the next one.
      if (this.#gathering === next) this.#gathering = undefined
      return this.#read()
    })
    this.#gathering = next
    const settled = next.then(
      () => {},
      () => {},
    )
    this.#inFlight = settled
    void settled.then(() => {
      if (this.#inFlight === settled) this.#inFlight = undefined
    })
    return next
  }
}
