import type { Task } from '@tasklane/contract'
import { describe, expect, it } from 'vitest'
import type { Change } from '../src/storage/open-storage.js'
import { changeType } from '../src/tasks/feed-events.js'

// Which event a change is for a filtered view, from where its subscriber stands: the rule
// of docs/api.md "Filtered views", one read at a time.

const red = { tag: 'red' }

/** Task 7's change at `seq`, now with `tag`, after its change at `prevSeq` left it with `prevTag`. */
function change(seq: number, prevSeq: number, prevTag: string, tag: string): Change {
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
    createdSeq: 1,
    prev: { tag: prevTag, status: 'open', listId: 1 },
  }
}

describe('changeType in a filtered view', () => {
  it('sends a change after the read the subscriber holds the previous state from by what that state was', () => {
    const at = { cursor: 10, seen: 10 }
    expect(changeType(change(12, 9, 'blue', 'red'), red, at)).toBe('created')
    expect(changeType(change(12, 9, 'red', 'blue'), red, at)).toBe('deleted')
    expect(changeType(change(12, 9, 'blue', 'blue'), red, at)).toBeUndefined()
    expect(changeType(change(12, 9, 'red', 'red'), red, at)).toBe('updated')
  })

  it('cannot tell what the subscriber holds when the previous change came after the read started', () => {
    // The change at 11 (it left red) was superseded by 12 before any read: never sent.
    const at = { cursor: 10, seen: 10 }
    expect(changeType(change(12, 11, 'blue', 'blue'), red, at)).toBe('deleted')
    expect(changeType(change(12, 11, 'blue', 'red'), red, at)).toBe('updated')
  })

  it('cannot tell when the previous read could see the change already (a full read stopped before it)', () => {
    // The last read stopped at 10 with 100 changes, and could see up to 20: the change at 9
    // may have been superseded by 15 already then, and never sent.
    const at = { cursor: 10, seen: 20 }
    expect(changeType(change(15, 9, 'blue', 'blue'), red, at)).toBe('deleted')
    expect(changeType(change(15, 9, 'blue', 'red'), red, at)).toBe('updated')
  })
})
