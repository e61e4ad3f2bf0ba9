import type { ListTasksQuery } from '@tasklane/contract'
import type { ListTasksOptions } from './options.js'

/**
 * The query string of GET /tasks for a call's options, typed by the contract's: a
 * parameter renamed there stops this compiling. `overdue` travels as `true` or `false`.
 */
export function listTasksQuery(
  limit: number | undefined,
  call: ListTasksOptions | undefined,
): ListTasksQuery {
  return {
    limit,
    after: call?.after,
    before: call?.before,
    order: call?.order,
    sort: call?.sort,
    tag: call?.tag,
    status: call?.status,
    list: call?.list,
    priority: call?.priority,
    dueFrom: call?.dueFrom,
    dueTo: call?.dueTo,
    tz: call?.tz,
    overdue: call?.overdue === undefined ? undefined : call.overdue ? 'true' : 'false',
    q: call?.q,
  }
}
