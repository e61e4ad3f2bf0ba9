import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createLimiter } from '../src/import/limiter.js'

/** A promise and the functions that settle it. */
function deferred() {
  let resolve = () => {}
  const promise = new Promise<void>((done) => {
    resolve = done
  })
  return { promise, resolve }
}

/** Lets every pending callback and microtask run. */
const settle = () => new Promise((resolve) => setImmediate(resolve))

describe('the import limiter', () => {
  const unhandled: unknown[] = []
  const record = (reason: unknown) => unhandled.push(reason)
  beforeEach(() => {
    unhandled.length = 0
    process.on('unhandledRejection', record)
  })
  afterEach(() => {
    process.off('unhandledRejection', record)
  })

  it('runs at most `limit` jobs at once and starts the next one when a slot frees', async () => {
    const limiter = createLimiter(2)
    const gates = [deferred(), deferred(), deferred()]
    const started: number[] = []
    await limiter.start(async () => {
      started.push(0)
      await gates[0]?.promise
    })
    await limiter.start(async () => {
      started.push(1)
      await gates[1]?.promise
    })
    const third = limiter.start(async () => {
      started.push(2)
      await gates[2]?.promise
    })
    await settle()
    expect(started).toEqual([0, 1])
    gates[0]?.resolve()
    await third
    expect(started).toEqual([0, 1, 2])
    gates[1]?.resolve()
    gates[2]?.resolve()
    await limiter.drain()
  })

  it('hands a job that throws to drain(), frees its slot, and leaves no unhandled rejection', async () => {
    const limiter = createLimiter(1)
    const failure = new Error('a job that failed')
    await limiter.start(async () => {
      throw failure
    })
    await settle()
    expect(unhandled).toEqual([])
    await expect(limiter.drain()).rejects.toBe(failure)
  })

  it('refuses to start more jobs once one has thrown, with that job’s error', async () => {
    const limiter = createLimiter(4)
    const failure = new Error('first failure')
    await limiter.start(() => Promise.reject(failure))
    await settle()
    let ran = false
    await expect(
      limiter.start(async () => {
        ran = true
      }),
    ).rejects.toBe(failure)
    expect(ran).toBe(false)
    expect(unhandled).toEqual([])
  })
})
