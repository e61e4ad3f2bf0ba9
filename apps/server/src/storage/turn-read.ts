/**
 * The newest seq as SQLite gives it, read once per turn of the event loop: every request
 * that arrived in the turn waits for one read made once they have all been received (in
 * the turn's check phase, `setImmediate`), and all of them are answered together. A read
 * made after a request arrived sees every commit before it; a commit of this process
 * acknowledged since raises it (`floor`), so a client that was answered for a write always
 * reads it back.
 *
 * Answering a turn's requests together is also what makes the page cache fast: their
 * responses leave in one burst, not one at a time between the parsing of the next
 * requests. In the bench (50 connections, the cached full page) that took tasklane from
 * about 0.7 of the bare-Fastify ceiling, whose handler answers each request at once, to
 * about 1.1 of it.
 */
export class TurnRead {
  readonly #read: () => Promise<number>
  readonly #floor: () => number
  #pending: Promise<number> | undefined

  constructor(read: () => Promise<number>, floor: () => number) {
    this.#read = read
    this.#floor = floor
  }

  get(): Promise<number> {
    this.#pending ??= new Promise<number>((resolve, reject) => {
      setImmediate(() => {
        this.#pending = undefined
        this.#read().then(resolve, reject)
      })
    })
    return this.#pending.then((value) => Math.max(value, this.#floor()))
  }
}
