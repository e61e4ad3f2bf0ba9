/** Runs at most `limit` jobs at once, for one producer that waits for a free slot. */
export interface Limiter {
  /** Waits until fewer than `limit` jobs run, then starts `job` without waiting for it. */
  start(job: () => Promise<void>): Promise<void>
  /** Resolves once every job started has settled. */
  drain(): Promise<void>
}

/**
 * A counter and one waiting producer: cheaper than `Promise.race` over the jobs in flight,
 * which attaches a handler to each of them for every job started.
 */
export function createLimiter(limit: number): Limiter {
  let active = 0
  let wake: (() => void) | undefined
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
  return {
    async start(job) {
      while (active >= limit) await wait()
      active++
      // A job never rejects (it reports its own failure); if one did, the process says so.
      void job().finally(release)
    },
    async drain() {
      while (active > 0) await wait()
    },
  }
}
