/**
 * The newest seq as SQLite gives it: read on this thread, synchronously, so one read serves
 * every request of the same turn of the event loop (the requests that arrived together),
 * and is forgotten before the next turn. A commit of this process acknowledged in between
 * raises it (`floor`): a client that was answered for a write always reads it back.
 */
export class TurnRead {
  readonly #read: () => Promise<number>
  readonly #floor: () => number
  #value: number | undefined

  constructor(read: () => Promise<number>, floor: () => number) {
    this.#read = read
    this.#floor = floor
  }

  async get(): Promise<number> {
    if (this.#value === undefined) {
      const value = await this.#read()
      if (this.#value === undefined) {
        this.#value = value
        setImmediate(() => {
          this.#value = undefined
        })
      }
    }
    return Math.max(this.#value ?? 0, this.#floor())
  }
}
