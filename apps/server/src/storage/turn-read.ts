/**
 * The newest seq (and access seq), read once per turn of the event loop: every request that arrived in the
 * turn waits for one read made once they have all been received (in the turn's check
 * phase, `setImmediate`), and all of them are answered together. A read made after a
 * request arrived sees every commit before it; a commit of this process acknowledged since
 * raises it (`floor`), so a client that was answered for a write always reads it back.
 *
 * One read is on its way at a time (SQLite answers at once, on this thread; PostgreSQL in a
 * round trip): a turn that finds one out waits for it to end, and the turns after it join
 * its read, made once it starts. So a database that stops answering holds one of the
 * pool's connections, not one per turn.
 *
 * Answering a turn's requests together is also what makes the page cache fast: their
 * responses leave in one burst, not one at a time between the parsing of the next
 * requests. In the bench (50 connections, the cached full page) that took tasklane from
 * about 0.7 of the bare-Fastify ceiling, whose handler answers each request at once, to
 * about 1.1 of it.
 */
export class TurnRead<T> {
  readonly #read: () => Promise<T>
  readonly #floor: (read: T) => T
  #pending: Promise<T> | undefined
  /** Starts the pending read, once the read in flight ends. */
  #startPending: (() => void) | undefined
  #inFlight = false

  /** `floor` raises a value read to what this process knows is committed. */
  constructor(read: () => Promise<T>, floor: (read: T) => T) {
    this.#read = read
    this.#floor = floor
  }

  get(): Promise<T> {
    this.#pending ??= new Promise<T>((resolve, reject) => {
      const start = () => {
        this.#pending = undefined
        this.#startPending = undefined
        this.#inFlight = true
        // A read that throws at once fails its callers too, and frees the way for the next.
        Promise.resolve()
          .then(() => this.#read())
          .finally(() => {
            this.#inFlight = false
            this.#startPending?.()
          })
          .then(resolve, reject)
      }
      setImmediate(() => {
        if (!this.#inFlight) start()
        else this.#startPending = start
      })
    })
    return this.#pending.then(this.#floor)
  }
}
