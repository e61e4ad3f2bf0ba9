import { describe, expect, it } from 'vitest'
import { beforeOf, newestPage, nextPage, pageNumber, previousPage } from '../src/paging.js'
import { describeList } from '../src/task-list.js'

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

describe('describeList', () => {
  const base = { shown: 10, tag: undefined, unseen: 0, first: true }

  it.each([
    [{ ...base }, 'Showing 10 tasks.'],
    [{ ...base, shown: 1, tag: 'docs' }, 'Showing 1 task tagged “docs”.'],
    [{ ...base, shown: 0, tag: 'docs' }, 'No tasks tagged “docs” yet.'],
    [{ ...base, unseen: 2, first: false }, '2 new tasks: see Newest.'],
    // On page 1 the new tasks are in the list already.
    [{ ...base, unseen: 2, first: true }, 'Showing 10 tasks.'],
  ])('says %o as %s', (state, text) => {
    expect(describeList(state)).toBe(text)
  })
})
