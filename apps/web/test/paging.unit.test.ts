import type { Task } from '@tasklane/client'
import { describe, expect, it } from 'vitest'
import { refusalOf } from '../src/messages.js'
import { OwnWrites } from '../src/own-writes.js'
import { PAGE_SIZE, pageOf, windowLimit } from '../src/page-window.js'
import { beforeOf, newestPage, nextPage, pageNumber, previousPage } from '../src/paging.js'
import { describeList, describeRange } from '../src/task-list.js'

const task = (id: number, more: Partial<Task> = {}): Task => ({
  id,
  listId: 1,
  priority: 0,
  position: 'a0',
  createdBy: 'local',
  updatedBy: 'local',
  name: `Task ${id}`,
  status: 'open',
  version: 1,
  createdAt: '2026-11-25T09:30:00.000Z',
  updatedAt: '2026-11-25T09:30:00.000Z',
  ...more,
})

/** Tasks `from` down to `to`, newest first, as a window holds them. */
const newestFirst = (from: number, to: number): Task[] =>
  Array.from({ length: from - to + 1 }, (_, i) => task(from - i))

const ids = (tasks: readonly Task[]) => tasks.map((t) => t.id)

describe('the pager', () => {
  it('starts on page 1, the newest tasks, with no before cursor', () => {
    expect(pageNumber(newestPage())).toBe(1)
    expect(beforeOf(newestPage())).toBeUndefined()
  })

  it('goes to the tasks below the last one shown, and back by the same cursors', () => {
    const second = nextPage(newestPage(), 41)
    const third = nextPage(second, 31)
    expect([pageNumber(third), beforeOf(third)]).toEqual([3, 31])
    expect(previousPage(third)).toEqual(second)
    expect(beforeOf(previousPage(second))).toBeUndefined()
  })

  it('stays on page 1 when asked for the page before it', () => {
    expect(previousPage(newestPage())).toEqual(newestPage())
  })
})

describe('a page of the live window', () => {
  const place = { before: undefined, limit: PAGE_SIZE + 1, full: true, newestSeen: 0 }

  it('shows the newest ten on page 1, and says a next page exists from the eleventh', () => {
    const page = pageOf(newestFirst(50, 40), place)
    expect(ids(page.tasks)).toEqual(ids(newestFirst(50, 41)))
    expect([page.hasNext, page.unseen, page.grow]).toEqual([true, 0, undefined])
  })

  it('anchors a later page at its cursor: new tasks are counted, not slipped in', () => {
    const window = newestFirst(53, 20)
    const page = pageOf(window, { before: 41, limit: 40, full: false, newestSeen: 50 })
    expect(ids(page.tasks)).toEqual(ids(newestFirst(40, 31)))
    expect([page.hasNext, page.unseen, page.grow]).toEqual([true, 3, undefined])
  })

  it('reads a deeper window once new tasks pushed out what the page needs', () => {
    // A full window of 31 after 25 new tasks: only 6 tasks below the cursor 41 are left in it.
    const window = newestFirst(65, 35)
    const page = pageOf(window, { before: 41, limit: 31, full: true, newestSeen: 50 })
    expect(ids(page.tasks)).toEqual(ids(newestFirst(40, 35)))
    expect(page.hasNext).toBe(false)
    expect(page.grow).toBe(windowLimit(window, 41))
    expect(page.grow).toBe(25 + 2 * PAGE_SIZE + 1)
  })

  it('reads no deeper window when the view has no more tasks than the window holds', () => {
    const page = pageOf(newestFirst(45, 38), { before: 41, limit: 31, full: false, newestSeen: 45 })
    expect([ids(page.tasks), page.hasNext, page.grow]).toEqual([[40, 39, 38], false, undefined])
  })

  it('needs a window of the tasks above the cursor, a page, one more and a page of room', () => {
    expect(windowLimit(newestFirst(50, 20), undefined)).toBe(PAGE_SIZE + 1)
    expect(windowLimit(newestFirst(50, 20), 41)).toBe(10 + 2 * PAGE_SIZE + 1)
  })
})

describe('the page’s own writes over the live copy', () => {
  const all = () => true

  it('shows a change in flight as intended, then as answered until the live copy has it', () => {
    const own = new OwnWrites()
    const live = [task(2), task(1)]
    own.begin(1, task(1, { status: 'done' }))
    expect(own.apply(live, all)[1]?.status).toBe('done')
    own.end(1)
    own.answered(task(1, { status: 'done', version: 2 }))
    expect(own.apply(live, all)[1]).toMatchObject({ status: 'done', version: 2 })
    // The feed brings version 2, then someone else's version 3: the live copy wins again.
    expect(own.apply([task(2), task(1, { version: 3, name: 'Theirs' })], all)[1]?.name).toBe(
      'Theirs',
    )
    expect(own.apply(live, all)[1]?.version).toBe(1)
  })

  it('shows the server’s state again after a failed change', () => {
    const own = new OwnWrites()
    own.begin(1, task(1, { status: 'done' }))
    own.end(1)
    expect(own.apply([task(1)], all)).toEqual([task(1)])
  })

  it('leaves out a task it deleted while the live copy still holds it, at that version too', () => {
    const own = new OwnWrites()
    own.begin(1, 'deleting')
    expect(ids(own.apply([task(2), task(1)], all))).toEqual([2, 1])
    own.end(1)
    own.gone(1)
    expect(ids(own.apply([task(2), task(1)], all))).toEqual([2])
    expect(ids(own.apply([task(2)], all))).toEqual([2])
  })

  it('leaves out an answered task that left the filter, and never goes back a version', () => {
    const own = new OwnWrites()
    own.answered(task(1, { status: 'done', version: 3 }))
    own.answered(task(1, { status: 'open', version: 2 }))
    expect(own.apply([task(1)], (t) => t.status === 'open')).toEqual([])
  })
})

describe('describeList', () => {
  const base = { shown: 10, tag: undefined, status: undefined, unseen: 0, first: true }

  it.each([
    [{ ...base }, 'Showing 10 tasks.'],
    [{ ...base, shown: 1, tag: 'docs' }, 'Showing 1 task tagged “docs”.'],
    [{ ...base, shown: 3, status: 'done' as const }, 'Showing 3 done tasks.'],
    [{ ...base, shown: 0, tag: 'docs' }, 'No tasks tagged “docs” yet.'],
    [{ ...base, shown: 0, status: 'open' as const }, 'No open tasks yet.'],
    [{ ...base, shown: 0, first: false }, 'No more tasks.'],
    [{ ...base, unseen: 2, first: false }, '2 new tasks: see Newest.'],
    // On page 1 the new tasks are in the list already.
    [{ ...base, unseen: 2, first: true }, 'Showing 10 tasks.'],
  ])('says %o as %s', (state, text) => {
    expect(describeList(state)).toBe(text)
  })
})

describe('where a page stands', () => {
  const place = { limit: 41, full: false, newestSeen: 50 }

  it('counts the tasks above the cursor, left out those added since page 1 was left', () => {
    expect(pageOf(newestFirst(50, 1), { ...place, before: undefined }).offset).toBe(0)
    expect(pageOf(newestFirst(50, 1), { ...place, before: 41 }).offset).toBe(10)
    // Three new ones, and one of page 1 deleted (45): the page is the 10th to 19th now.
    const window = [...newestFirst(53, 46), ...newestFirst(44, 1)]
    expect(pageOf(window, { ...place, before: 41 }).offset).toBe(9)
  })

  it('says the range, and the total on the last page, where it is known', () => {
    expect(describeRange({ offset: 10, shown: 10, hasNext: true })).toBe('Tasks 11–20, more follow')
    expect(describeRange({ offset: 20, shown: 3, hasNext: false })).toBe('Tasks 21–23 of 23')
    expect(describeRange({ offset: 10, shown: 1, hasNext: false })).toBe('Task 11 of 11')
    expect(describeRange({ offset: 0, shown: 0, hasNext: false })).toBe('')
  })
})

describe('a refusal in words', () => {
  it.each([
    ['Field "name" must be at least 1 character long.', 'name', 'Give the task a name.'],
    [
      'Field "name" must contain at least one non-whitespace character.',
      'name',
      'Give the task a name.',
    ],
    [
      'Field "tag" must contain at least one visible character, not only invisible ones such as U+200B.',
      'tag',
      'Give the tag a letter or another visible character, or leave it empty.',
    ],
    [
      'Field "name" must be at most 200 characters long.',
      'name',
      'The name can have at most 200 characters: this one has 201.',
    ],
    [
      'Field "tag" must not contain the NUL character (U+0000).',
      'tag',
      'The tag holds a NUL character (U+0000), which cannot be stored.',
    ],
  ])('says %j as a person would, beside its field', (message, field, text) => {
    expect(refusalOf(message, { name: `${'🚀'.repeat(200)}x`, tag: 'x' })).toEqual({ field, text })
  })

  it('keeps the server’s words for what it does not know, beside the field they name if any', () => {
    const unknown = 'Field "name" must be a string.'
    expect(refusalOf(unknown, {})).toEqual({ field: 'name', text: unknown })
    const other = 'The request body must be a JSON object.'
    expect(refusalOf(other, {})).toEqual({ field: undefined, text: other })
  })
})
