import type { HistoryEntry, TaskHistoryQuery } from '@tasklane/contract'
import type { RightsCache } from '../access/rights-cache.js'
import { TaskNotFoundError } from '../domain/domain-errors.js'
import type { Log } from '../domain/log.js'
import { Periodic } from '../domain/periodic.js'
import { type Caller, decide } from '../domain/rights.js'
import type { AtSeq, Storage } from '../storage/open-storage.js'

/** Entries a page holds when `limit` is omitted. */
export const HISTORY_PAGE = 100

/** How often history past its retention is pruned. */
const PRUNE_EVERY_MS = 10 * 60 * 1000

const DAY_MS = 24 * 60 * 60 * 1000

/** A page of a task's history, newest first, and the seq to go on before when more follow. */
export interface HistoryPage extends AtSeq<HistoryEntry[]> {
  readonly next: number | undefined
}

/**
 * A task's history as a caller may read it: every change kept with the change itself (the
 * write algorithm writes it), readable by those who read the list the task is in, or was
 * last in once deleted; any other caller is told no such task exists.
 */
export class TaskHistoryReads {
  readonly #storage: Storage
  readonly #rights: RightsCache

  constructor(storage: Storage, rights: RightsCache) {
    this.#storage = storage
    this.#rights = rights
  }

  /** GET /tasks/{id}/history. */
  async history(
    caller: Caller,
    id: number,
    { limit = HISTORY_PAGE, before = Number.MAX_SAFE_INTEGER }: TaskHistoryQuery,
  ): Promise<HistoryPage> {
    const { value, ...at } = await this.#rights.withRights(caller, async (rights) => {
      const read = await this.#storage.taskHistory(id, before, Math.min(limit, 2 ** 31 - 2) + 1)
      const { task } = read.value
      const readable =
        task !== undefined && decide(rights, task.listId, 'read').verdict !== 'hidden'
      return readable ? read : { ...read, value: undefined }
    })
    if (value === undefined) throw new TaskNotFoundError(id)
    const entries = value.entries
    const more = entries.length > limit
    if (more) entries.length = limit
    return { value: entries, ...at, next: more ? entries.at(-1)?.seq : undefined }
  }
}

/** Prunes history older than `days` days, at start and every 10 minutes. */
export const historyPrune = (storage: Storage, log: Log, days: number) =>
  new Periodic(
    'history past its retention',
    PRUNE_EVERY_MS,
    () => storage.pruneHistory(Date.now() - days * DAY_MS),
    log,
  )
