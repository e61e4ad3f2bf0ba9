import { describe, expect, it } from 'vitest'
import { nextQuery, type Page, type PageQuery, paginate } from '../../src/pagination.js'

describe('nextQuery (Link header)', () => {
  it.each([
    ['</tasks?limit=2&after=7>; rel="next"', { limit: '2', after: '7' }],
    ['</tasks?limit=2&after=7&tag=a%2Cb>; rel="next"', { limit: '2', after: '7', tag: 'a,b' }],
    ['<http://h/api/tasks?after=9>; rel=next', { after: '9' }],
    ['</tasks?after=1>; rel="prev", </tasks?after=12>; rel="next last"', { after: '12' }],
    ['</tasks?after=3>; title="x"; rel="next"', { after: '3' }],
    [
      '</tasks?limit=2&cursor=ZHVlOjIwMjYtMTItMDE6Nw&sort=due&q=release%20not>; rel="next"',
      { limit: '2', cursor: 'ZHVlOjIwMjYtMTItMDE6Nw', sort: 'due', q: 'release not' },
    ],
  ])('reads the next page of %s', (link, query) => {
    expect(nextQuery(link)).toEqual(query)
  })

  it.each([[null], [''], ['</tasks?after=5>; rel="prev"'], ['</tasks>; rel="next"']])(
    'finds no next page in %s',
    (link) => {
      expect(nextQuery(link)).toBeUndefined()
    },
  )
})

describe('paginate', () => {
  const ids = [1, 2, 3, 4, 5, 6, 7]
  const after = (last: { id: number }) => ({ limit: 2, after: last.id })

  /** Pages of `ids` after a position, with a Link to the next one when `link` and a page is full and more follow. */
  function pages(pageSize: number, { link = true } = {}) {
    const asked: PageQuery[] = []
    const fetchPage = async (query: PageQuery): Promise<Page<{ id: number }>> => {
      asked.push(query)
      const items = ids.filter((id) => id > Number(query.after ?? 0)).slice(0, pageSize)
      const last = items.at(-1)
      const more = link && last !== undefined && last < 7 && items.length === pageSize
      return {
        items: items.map((id) => ({ id })),
        link: more ? `</t?limit=${pageSize}&after=${last}>; rel="next"` : null,
      }
    }
    return { asked, fetchPage }
  }

  async function walk(
    fetchPage: (query: PageQuery) => Promise<Page<{ id: number }>>,
    options: Parameters<typeof paginate<{ id: number }>>[1],
  ): Promise<number[]> {
    const seen: number[] = []
    for await (const item of paginate(fetchPage, options)) seen.push(item.id)
    return seen
  }

  it('follows the Link header from page to page, from the first query, sending its query as it is', async () => {
    const { asked, fetchPage } = pages(2)
    const first = { limit: 2, after: 1 }
    expect(await walk(fetchPage, { first, pageSize: 2, after })).toEqual([2, 3, 4, 5, 6, 7])
    expect(asked).toEqual([first, { limit: '2', after: '3' }, { limit: '2', after: '5' }])
  })

  it('ends at a full page without a Link once a Link has been seen', async () => {
    const { asked, fetchPage } = pages(1)
    expect(await walk(fetchPage, { first: { limit: 1 }, pageSize: 1, after })).toEqual(ids)
    expect(asked.map((query) => query.after)).toEqual([undefined, '1', '2', '3', '4', '5', '6'])
  })

  it('asks once more after a full page when no Link was ever seen (hidden by CORS)', async () => {
    const { asked, fetchPage } = pages(7, { link: false })
    expect(await walk(fetchPage, { first: { limit: 7 }, pageSize: 7, after })).toEqual(ids)
    expect(asked).toEqual([{ limit: 7 }, { limit: 2, after: 7 }])
  })

  it('ends at the first page when no Link came and the walk has no way of its own (a sorted listing)', async () => {
    const { asked, fetchPage } = pages(2, { link: false })
    expect(await walk(fetchPage, { first: { limit: 2 }, pageSize: 2 })).toEqual([1, 2])
    expect(asked).toHaveLength(1)
  })

  it('fetches lazily: a loop that stops early asks for no further page', async () => {
    const { asked, fetchPage } = pages(2)
    for await (const item of paginate(fetchPage, { first: { limit: 2 }, pageSize: 2, after })) {
      if (item.id === 2) break
    }
    expect(asked).toHaveLength(1)
  })

  it('follows an opaque cursor, whatever the order of the items', async () => {
    // Sorted by priority: the ids say nothing of where the next page starts.
    const sorted = [5, 2, 7, 1, 3]
    const asked: PageQuery[] = []
    const fetchPage = async (query: PageQuery) => {
      asked.push(query)
      const start = query.cursor === undefined ? 0 : Number(atob(String(query.cursor)))
      const items = sorted.slice(start, start + 2).map((id) => ({ id }))
      const more = start + 2 < sorted.length
      const link = more
        ? `</t?limit=2&sort=priority&cursor=${btoa(String(start + 2))}>; rel="next"`
        : null
      return { items, link }
    }
    const first = { limit: 2, sort: 'priority' }
    expect(await walk(fetchPage, { first, pageSize: 2, after })).toEqual(sorted)
    expect(asked.map((query) => query.cursor)).toEqual([undefined, btoa('2'), btoa('4')])
  })

  it('ends rather than loops when the Link names the page it came with', async () => {
    let calls = 0
    const fetchPage = async () => {
      calls++
      return { items: [{ id: 1 }, { id: 2 }], link: '</t?limit=2&after=0>; rel="next"' }
    }
    expect(await walk(fetchPage, { first: { limit: 2, after: 0 }, pageSize: 2, after })).toEqual([
      1, 2,
    ])
    expect(calls).toBe(1)
  })
})
