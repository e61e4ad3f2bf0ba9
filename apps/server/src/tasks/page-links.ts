import type { ListTasksQuery } from '@tasklane/contract'

/**
 * The `Link` to the page after one that ends at `lastId`: the cursor moves (`after`
 * ascending, `before` descending) and every other parameter stays.
 */
export function nextLink(
  { limit, after, before, tag, status, order, list }: ListTasksQuery,
  lastId: number,
): string {
  const cursor =
    order === 'desc'
      ? `before=${lastId}&order=desc${after === undefined ? '' : `&after=${after}`}`
      : `after=${lastId}${before === undefined ? '' : `&before=${before}`}`
  const statusParam = status === undefined ? '' : `&status=${status}`
  const listParam = list === undefined ? '' : `&list=${list}`
  const tagParam = tag === undefined ? '' : `&tag=${encodeURIComponent(tag)}`
  return `</tasks?limit=${limit}&${cursor}${statusParam}${listParam}${tagParam}>; rel="next"`
}
