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
      (value) => value,
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
      (value) => Math.max(value, acknowledged),
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
      (value) => value,
    )
    const results = await Promise.allSettled([turn.get(), turn.get()])
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected'])
    fail = false
    expect(await turn.get()).toBe(4)
  })

  it('keeps one read on its way: later turns wait for it, then share one read made after all of them', async () => {
    let newest = 1
    let reads = 0
    const answers: ((value: number) => void)[] = []
    const turn = new TurnRead(
      () => {
        reads++
        return new Promise<number>((resolve) => answers.push(resolve))
      },
      (value) => value,
    )
    const first = turn.get()
    await nextTurn()
    expect(reads).toBe(1)
    // Two more turns while the first read is out (a database that answers slowly).
    const second = turn.get()
    await nextTurn()
    const third = turn.get()
    await nextTurn()
    expect(reads).toBe(1)
    newest = 2
    answers[0]?.(newest - 1)
    expect(await first).toBe(1)
    await nextTurn()
    // The waiting turns' read starts once the first has ended: it sees the later commit.
    expect(reads).toBe(2)
    answers[1]?.(newest)
    expect(await Promise.all([second, third])).toEqual([2, 2])
  })

  it('frees the way for the next read when a read throws at once', async () => {
    let fail = true
    const turn = new TurnRead(
      () => {
        if (fail) throw new Error('not connected')
        return Promise.resolve(3)
      },
      (value) => value,
    )
    await expect(turn.get()).rejects.toThrow('not connected')
    fail = false
    expect(await turn.get()).toBe(3)
  })
})
