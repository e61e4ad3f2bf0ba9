import type { Task } from '@tasklane/client'
import { describe, expect, it } from 'vitest'
import { byPosition, keyboardMove, standing } from '../src/manual-order.js'

const task = (id: number, listId: number, position: string) =>
  ({ id, listId, position, name: `#${id}` }) as Task

describe('byPosition', () => {
  it('orders by list, then position in byte order, then id', () => {
    const tasks = [task(1, 2, 'a0'), task(2, 1, 'a1'), task(3, 1, 'Zz'), task(4, 1, 'a1')]
    expect(tasks.sort(byPosition).map((t) => t.id)).toEqual([3, 2, 4, 1])
  })
})

describe('keyboardMove', () => {
  const shown = [task(1, 1, 'a0'), task(2, 1, 'a1'), task(3, 2, 'a0')]

  it('puts a task before the one above it, or after the one below it', () => {
    expect(keyboardMove(shown, shown[1] as Task, 'up')).toMatchObject({ place: { before: 1 } })
    expect(keyboardMove(shown, shown[0] as Task, 'down')).toMatchObject({ place: { after: 2 } })
  })

  it('stops at the edge of the shown tasks and of the task’s own list', () => {
    expect(keyboardMove(shown, shown[0] as Task, 'up')).toEqual({ kind: 'edge' })
    expect(keyboardMove(shown, shown[1] as Task, 'down')).toEqual({ kind: 'edge' })
    expect(keyboardMove(shown, shown[2] as Task, 'up')).toEqual({ kind: 'edge' })
  })

  it('says where a task stands in its list', () => {
    expect(standing(shown, shown[1] as Task)).toBe('2 of 2')
    expect(standing(shown, shown[2] as Task)).toBe('1 of 1')
  })
})
