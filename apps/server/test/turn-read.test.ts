import { describe, expect, it } from 'vitest'
import { TurnRead } from '../src/storage/turn-read.js'

const nextTurn = () => new Promise((resolve) => setImmediate(resolve))

describe('TurnRead', () => {
  it('serves every caller of a turn with one read, made after the last of them called', async () => {
    let newest = 5
    let reads = 0
    const turn = new TurnRead(
      async () => {
        reads++
        return newest
      },
      () => 0,
    )
    const first = turn.get()
    // Committed after the first request arrived, before the turn ended: the read sees it.
    newest = 6
    const second = turn.get()
    expect(await Promise.all([first, second])).toEqual([6, 6])
    expect(reads).toBe(1)
    await nextTurn()
    newest = 7
    expect(await turn.get()).toBe(7)
    expect(reads).toBe(2)
  })

  it('never answers below a commit this process has acknowledged', async () => {
    let acknowledged = 3
    const turn = new TurnRead(
      async () => 2,
      () => acknowledged,
    )
    const pending = turn.get()
    acknowledged = 9
    expect(await pending).toBe(9)
  })

  it('fails every caller of the turn when the read fails, and reads again next turn', async () => {
    let fail = true
    const turn = new TurnRead(
      async () => {
        if (fail) throw new Error('database unavailable')
        return 4
      },
      () => 0,
    )
    const results = await Promise.allSettled([turn.get(), turn.get()])
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected'])
    fail = false
    expect(await turn.get()).toBe(4)
  })
})
