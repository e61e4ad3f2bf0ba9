import { describe, expect, it } from 'vitest'
import { nextCursor, type Page, paginate } from '../../src/pagination.js'

describe('nextCursor (Link header)', () => {
  it.each([
    ['</tasks?limit=2&after=7>; rel="next"', 7],
    ['</tasks?limit=2&after=7&tag=a%2Cb>; rel="next"', 7],
    ['<http://h/api/tasks?after=9>; rel=next', 9],
    ['</tasks?after=1>; rel="prev", </tasks?after=12>; rel="next last"', 12],
    ['</tasks?after=3>; title="x"; rel="next"', 3],
  ])('reads the next cursor from %s', (link, after) => {
    expect(nextCursor(link, 'after')).toBe(after)
  })

  it('reads before, the cursor of a newest-first page', () => {
    const link = '</tasks?limit=2&before=7&order=desc&after=2>; rel="next"'
    expect(nextCursor(link, 'before')).toBe(7)
    expect(nextCursor(link, 'after')).toBe(2)
  })

  it.each([
    [null],
    [''],
    ['</tasks?after=5>; rel="prev"'],
    ['</tasks?limit=5>; rel="next"'],
    ['</tasks?after=-1>; rel="next"'],
  ])('finds no next page in %s', (link) => {
    expect(nextCursor(link, 'after')).toBeUndefined()
  })
})

describe('paginate', () => {
  const ids = [1, 2, 3, 4, 5, 6, 7]

  /** Pages of `ids` after a position, with a Link to the next one when `link` and a page is full and more follow. */
  function pages(pageSize: number, { link = true } = {}) {
    const asked: (number | undefined)[] = []
    const fetchPage = async (position: number | undefined): Promise<Page<{ id: number }>> => {
      asked.push(position)
      const items = ids.filter((id) => id > (position ?? 0)).slice(0, pageSize)
      const last = items.at(-1)
      const more = link && last !== undefined && last < 7 && items.length === pageSize
      return {
        items: items.map((id) => ({ id })),
        link: more ? `</t?after=${last}>; rel="next"` : null,
      }
    }
    return { asked, fetchPage }
  }

  async function walk(
    fetchPage: (position: number | undefined) => Promise<Page<{ id: number }>>,
    options: Parameters<typeof paginate>[1],
  ): Promise<number[]> {
    const seen: number[] = []
    for await (const item of paginate(fetchPage, options)) seen.push(item.id)
    return seen
  }

  it('follows the Link header from page to page, from `start`', async () => {
    const { asked, fetchPage } = pages(2)
    expect(await walk(fetchPage, { cursor: 'after', pageSize: 2, start: 1 })).toEqual([
      2, 3, 4, 5, 6, 7,
    ])
    expect(asked).toEqual([1, 3, 5])
  })

  it('ends at a full page without a Link once a Link has been seen', async () => {
    const { asked, fetchPage } = pages(1)
    expect(await walk(fetchPage, { cursor: 'after', pageSize: 1 })).toEqual(ids)
    expect(asked).toEqual([undefined, 1, 2, 3, 4, 5, 6])
  })

  it('asks once more after a full page when no Link was ever seen (hidden by CORS)', async () => {
    const { asked, fetchPage } = pages(7, { link: false })
    expect(await walk(fetchPage, { cursor: 'after', pageSize: 7 })).toEqual(ids)
    expect(asked).toEqual([undefined, 7])
  })

  it('fetches lazily: a loop that stops early asks for no further page', async () => {
    const { asked, fetchPage } = pages(2)
    for await (const item of paginate(fetchPage, { cursor: 'after', pageSize: 2 })) {
      if (item.id === 2) break
    }
    expect(asked).toEqual([undefined])
  })

  it('moves the before cursor of a newest-first walk', async () => {
    const asked: (number | undefined)[] = []
    const fetchPage = async (position: number | undefined) => {
      asked.push(position)
      const items = [...ids]
        .reverse()
        .filter((id) => id < (position ?? 100))
        .slice(0, 3)
      const last = items.at(-1)
      const link =
        items.length === 3 && last !== 1 ? `</t?before=${last}&order=desc>; rel="next"` : null
      return { items: items.map((id) => ({ id })), link }
    }
    expect(await walk(fetchPage, { cursor: 'before', pageSize: 3 })).toEqual([7, 6, 5, 4, 3, 2, 1])
    expect(asked).toEqual([undefined, 5, 2])
  })
})
