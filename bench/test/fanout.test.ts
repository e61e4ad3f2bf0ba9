import { describe, expect, it } from 'vitest'
import { deliveryDelays } from '../src/fanout.js'

describe('deliveryDelays', () => {
  it('gives one delay per subscriber and task, sorted, from the 201 to the event', () => {
    const acknowledged = new Map([
      [1, 100],
      [2, 200],
    ])
    const arrivals = [
      new Map([
        [1, 105],
        [2, 230],
      ]),
      new Map([
        [1, 150],
        [2, 201],
      ]),
    ]
    expect(deliveryDelays(acknowledged, arrivals)).toEqual([1, 5, 30, 50])
  })

  it('counts an event that arrived before its own 201 as no delay', () => {
    expect(deliveryDelays(new Map([[1, 100]]), [new Map([[1, 99]])])).toEqual([0])
  })

  it('throws when a subscriber never received a task', () => {
    expect(() => deliveryDelays(new Map([[7, 1]]), [new Map()])).toThrow(/task 7/)
  })
})
