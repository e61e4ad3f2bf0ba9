import type { Task } from '@tasklane/contract'
import { describe, expect, it } from 'vitest'
import type { Change } from '../src/storage/open-storage.js'
import { changeType } from '../src/tasks/feed-events.js'

// Which event a change is for a filtered view, from where its subscriber stands: the rule
// of docs/api.md "Filtered views", one read at a time.

const red = { tag: 'red' }

/**
 * Task 7's change at `seq`, now with `tag`, after its change at `prevSeq` left it with
 * `prevTag`; made at `createdSeq`.
 */
function change(
  seq: number,
  prevSeq: number,
  prevTag: string,
  tag: string,
  createdSeq = 1,
): Change {
  const task: Task = {
    id: 7,
    listId: 1,
    name: 'seven',
    tag,
    status: 'open',
    priority: 0,
    position: 'a0',
    version: 3,
    createdAt: '2026-11-25T00:00:00.000Z',
    createdBy: 'local',
    updatedAt: '2026-11-25T00:00:00.000Z',
    updatedBy: 'local',
  }
  return {
    seq,
    id: 7,
    version: 3,
    listId: 1,
    task,
    prevSeq,
    createdSeq,
    prev: { tag: prevTag, status: 'open', listId: 1 },
  }
}

describe('changeType in a filtered view', () => {
  it('sends a change after the read the subscriber holds the previous state from by what that state was', () => {
    const at = { cursor: 10, seen: 10, after: 10, held: new Set<number>() }
    expect(changeType(change(12, 9, 'blue', 'red'), red, at)).toBe('created')
    expect(changeType(change(12, 9, 'red', 'blue'), red, at)).toBe('deleted')
    expect(changeType(change(12, 9, 'blue', 'blue'), red, at)).toBeUndefined()
    expect(changeType(change(12, 9, 'red', 'red'), red, at)).toBe('updated')
  })

  it('cannot tell what the subscriber holds when the previous change came after the read started', () => {
    // The change at 11 (it left red) was superseded by 12 before any read: never sent.
    const at = { cursor: 10, seen: 10, after: 10, held: new Set<number>() }
    expect(changeType(change(12, 11, 'blue', 'blue'), red, at)).toBe('deleted')
    expect(changeType(change(12, 11, 'blue', 'red'), red, at)).toBe('updated')
  })

  it('cannot tell when the previous read could see the change already (a full read stopped before it)', () => {
    // The last read stopped at 10 with 100 changes, and could see up to 20: the change at 9
    // may have been superseded by 15 already then, and never sent.
    const at = { cursor: 10, seen: 20, after: 10, held: new Set<number>() }
    expect(changeType(change(15, 9, 'blue', 'blue'), red, at)).toBe('deleted')
    expect(changeType(change(15, 9, 'blue', 'red'), red, at)).toBe('updated')
  })

  it('sends no deleted for a task made after the subscription began that it was never sent', () => {
    // Subscribed from 0; a later read of the backlog starts at 300: task 7, made at 150 and
    // changed at 320, never matched, so it was never sent, whatever the cursor.
    const at = { cursor: 300, seen: 400, after: 0, held: new Set<number>() }
    expect(changeType(change(320, 150, 'blue', 'blue', 150), red, at)).toBeUndefined()
  })

  it('sends deleted for a task made after the subscription began once it was sent, and only once', () => {
    const at = { cursor: 300, seen: 400, after: 0, held: new Set<number>() }
    expect(changeType(change(310, 150, 'blue', 'red', 150), red, at)).toBe('updated')
    expect(at.held.has(7)).toBe(true)
    const later = { ...at, cursor: 310 }
    expect(changeType(change(330, 320, 'blue', 'blue', 150), red, later)).toBe('deleted')
    expect(at.held.has(7)).toBe(false)
    expect(
      changeType(change(350, 340, 'blue', 'blue', 150), red, { ...later, cursor: 340 }),
    ).toBeUndefined()
  })
})
