import type { ListTasksQuery } from '@tasklane/contract'

/** A query parameter as a Link writes it, after `&`; nothing when it is not given. */
const param = (name: string, value: string | number | undefined) =>
  value === undefined ? '' : `&${name}=${encodeURIComponent(value)}`

/** The filters of `query` as a Link carries them, in the order the Link writes them. */
function filterParams(query: ListTasksQuery): string {
  const { status, list, tag, priority, dueFrom, dueTo, tz, overdue, q } = query
  return (
    param('status', status) +
    param('list', list) +
    param('tag', tag) +
    param('priority', priority) +
    param('dueFrom', dueFrom) +
    param('dueTo', dueTo) +
    param('tz', tz) +
    param('overdue', overdue) +
    param('q', q)
  )
}

/**
 * The `Link` to the page after one that ends at `lastId`, and every other parameter stays.
 * In the id order the id range moves (`after` ascending, `before` descending); in another
 * sort, `cursor` (the last task's keyset, page-cursor.ts) does, and the range stays.
 */
export function nextLink(query: ListTasksQuery, lastId: number, cursor?: string): string {
  const { limit, after, before, order } = query
  if (cursor !== undefined) {
    const range = param('after', after) + param('before', before)
    const position = `sort=${query.sort}${order === 'desc' ? '&order=desc' : ''}&cursor=${cursor}`
    return `</tasks?limit=${limit}&${position}${range}${filterParams(query)}>; rel="next"`
  }
  const position =
    order === 'desc'
      ? `before=${lastId}&order=desc${after === undefined ? '' : `&after=${after}`}`
      : `after=${lastId}${before === undefined ? '' : `&before=${before}`}`
  return `</tasks?limit=${limit}&${position}${filterParams(query)}>; rel="next"`
}
