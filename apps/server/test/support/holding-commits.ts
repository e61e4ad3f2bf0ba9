import type { Storage } from '../../src/storage/open-storage.js'

/** Commits that can be held back, for a test to act while writes wait for them. */
export interface HoldingCommits {
  /** Give this to `startServer`: the storage whose writes wait while held. */
  wrapStorage(storage: Storage): Storage
  /** Holds every commit from now until `release`. */
  hold(): void
  /** Resolves once `n` commits have started (and are held) since `hold`. */
  started(n: number): Promise<void>
  /** Lets the held commits, and those after them, through. */
  release(): void
}

/** Holds every commit, once `hold` is called, until `release` is. */
export function holdingCommits(): HoldingCommits {
  let release = () => {}
  let held = Promise.resolve()
  let calls = 0
  return {
    wrapStorage: (storage) => ({
      ...storage,
      write: async (items, now, notBefore) => {
        calls++
        await held
        return storage.write(items, now, notBefore)
      },
    }),
    hold() {
      calls = 0
      held = new Promise((resolve) => {
        release = resolve
      })
    },
    async started(n) {
      while (calls < n) await new Promise((resolve) => setImmediate(resolve))
    },
    release: () => release(),
  }
}
