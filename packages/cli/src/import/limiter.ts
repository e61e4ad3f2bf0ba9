/** Runs at most `limit` jobs at once, for one producer that waits for a free slot. */
export interface Limiter {
  /**
   * Waits until fewer than `limit` jobs run, then starts `job` without waiting for it.
   * Rejects, starting nothing, once a job has thrown: with that job's error.
   */
  start(job: () => Promise<void>): Promise<void>
  /** Resolves once every job started has settled; rejects with the first job's error, if any. */
  drain(): Promise<void>
}

/**
 * A counter and one waiting producer: cheaper than `Promise.race` over the jobs in flight,
 * which attaches a handler to each of them for every job started.
 */
export function createLimiter(limit: number): Limiter {
  let active = 0
  let wake: (() => void) | undefined
  // Nobody awaits a job: its error is kept here for the producer, never left unhandled.
  let failure: { readonly error: unknown } | undefined
  const wait = () =>
    new Promise<void>((resolve) => {
      wake = resolve
    })
  const release = () => {
    active--
    const resolve = wake
    wake = undefined
    resolve?.()
  }
  const run = async (job: () => Promise<void>) => {
    try {
      await job()
    } catch (error) {
      failure ??= { error }
    } finally {
      release()
    }
  }
  return {
    async start(job) {
      while (active >= limit && failure === undefined) await wait()
      if (failure !== undefined) throw failure.error
      active++
      void run(job)
    },
    async drain() {
      while (active > 0) await wait()
      if (failure !== undefined) throw failure.error
    },
  }
}
