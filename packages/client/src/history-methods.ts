import type { HistoryOptions, TaskHistoryOptions } from './options.js'
import { type PageQuery, pageSizeOf, paginate } from './pagination.js'
import { fillPath, HISTORY_PATH } from './paths.js'
import type { Transport } from './transport.js'
import type { HistoryEntry } from './types.js'

/**
 * The methods of a task's history: every create, change, move and delete of it, newest
 * first, kept for the server's HISTORY_RETENTION_DAYS (30 by default). Also answered for a
 * deleted task, to those who read its list; else an ApiError of status 404.
 */
export interface HistoryMethods {
  /**
   * One page of a task's history, newest first: at most `limit` entries (the server's
   * default: 100), those older than the seq `before` names.
   * @example
   * const [latest] = await client.taskHistory(7, { limit: 1 })
   * console.log(latest?.actor, latest?.type, latest?.changes) // 'local' 'updated' { status: { from: 'open', to: 'done' } }
   * const older = await client.taskHistory(7, { limit: 10, before: latest?.seq })
   */
  taskHistory(id: number, options?: TaskHistoryOptions): Promise<HistoryEntry[]>
  /**
   * Every entry of a task's history, newest first, fetched a page at a time as the loop
   * goes on (following the Link header's next page).
   * @example
   * for await (const entry of client.history(7)) console.log(entry.seq, entry.type, entry.actor)
   */
  history(id: number, options?: HistoryOptions): AsyncGenerator<HistoryEntry, void, undefined>
}

/** The history methods of a client, on its transport. */
export function historyMethods(transport: Transport): HistoryMethods {
  const page = (id: number, query: PageQuery, call: TaskHistoryOptions | undefined) =>
    transport.send<HistoryEntry[]>({
      method: 'GET',
      path: fillPath(HISTORY_PATH, id),
      query,
      schema: 'HistoryEntry[]',
      options: call,
    })

  return {
    taskHistory: async (id, call) =>
      (await page(id, { limit: call?.limit, before: call?.before }, call)).data,
    async *history(id, call = {}) {
      const pageSize = pageSizeOf(call.pageSize)
      const first = { limit: pageSize, before: call.before }
      const fetchPage = async (query: PageQuery) => {
        const { data, response } = await page(id, query, call)
        return { items: data, link: response.headers.get('link') }
      }
      yield* paginate(fetchPage, {
        first,
        pageSize,
        after: (last) => ({ ...first, before: last.seq }),
      })
    },
  }
}
