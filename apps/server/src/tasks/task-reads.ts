import type { ListTasksQuery, Task } from '@tasklane/contract'
import type { HeldRights, RightsCache } from '../access/rights-cache.js'
import { ListNotFoundError, TaskNotFoundError } from '../domain/domain-errors.js'
import { type Caller, decide, readableLists } from '../domain/rights.js'
import type { AtSeq, Storage } from '../storage/open-storage.js'
import type { Listing, ListingAnswer, WhenDone } from './listing.js'
import type { Format } from './page-cache.js'

/**
 * The reads of tasks as a caller may make them: a listing of the lists it reads, one task
 * of a list it reads (any other is not found, exactly as a missing one), each made under
 * the caller's rights as they stood in the read's own snapshot.
 */
export class TaskReads {
  readonly #storage: Storage
  readonly #listing: Listing
  readonly #rights: RightsCache

  constructor(storage: Storage, listing: Listing, rights: RightsCache) {
    this.#storage = storage
    this.#listing = listing
    this.#rights = rights
  }

  /** GET /tasks for `caller`: `query.list` narrows to one list, which it must be able to read. */
  async list(
    caller: Caller,
    query: ListTasksQuery,
    format: Format,
    whenDone: WhenDone,
  ): Promise<ListingAnswer> {
    const answer = await this.#rights.withRights(caller, (rights) =>
      this.#listing.list(query, format, listsOf(rights, query.list), whenDone),
    )
    // An admin's `list` is checked only when it finds nothing: a list it names may not exist.
    if (query.list !== undefined && answer.empty && (await this.#missing(query.list))) {
      throw new ListNotFoundError(query.list)
    }
    return answer
  }

  /** GET /tasks/{id} for `caller`. */
  async find(caller: Caller, id: number): Promise<AtSeq<Task>> {
    const { value: task, ...at } = await this.#rights.withRights(caller, async (rights) => {
      const found = await this.#storage.findTask(id)
      const readable =
        found.value !== undefined && decide(rights, found.value.listId, 'read').verdict !== 'hidden'
      return readable ? found : { ...found, value: undefined }
    })
    if (task === undefined) throw new TaskNotFoundError(id)
    return { value: task, ...at }
  }

  async #missing(listId: number): Promise<boolean> {
    return (await this.#storage.access.list(listId)).value === undefined
  }
}

/**
 * The lists a listing covers: every list the caller reads (undefined: all of them), or the
 * one it names; a list it cannot read is refused as if it did not exist.
 */
export function listsOf(
  rights: HeldRights,
  list: number | undefined,
): readonly number[] | undefined {
  const readable = readableLists(rights)
  if (list === undefined) return readable === 'all' ? undefined : readable
  if (readable !== 'all' && !readable.includes(list)) throw new ListNotFoundError(list)
  return [list]
}
