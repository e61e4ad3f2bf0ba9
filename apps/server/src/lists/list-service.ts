import { createHash } from 'node:crypto'
import type { List, ListListsQuery, Member } from '@tasklane/contract'
import type { RightsCache } from '../access/rights-cache.js'
import {
  ForbiddenError,
  IdempotencyConflictError,
  LastOwnerError,
  ListNotFoundError,
  MemberNotFoundError,
  PreconditionFailedError,
} from '../domain/domain-errors.js'
import type { KeysInFlight } from '../domain/keys-in-flight.js'
import { forbiddenIn } from '../domain/refusals.js'
import { type Caller, decide, type Role, readableLists } from '../domain/rights.js'
import {
  type AccessOutcome,
  type AccessWrite,
  type AtSeq,
  type IfMatch,
  keyOf,
  type Storage,
} from '../storage/open-storage.js'

/** How long a repeat with the same Idempotency-Key replays the first response (as for tasks). */
const KEY_TTL_MS = 24 * 60 * 60 * 1000

/** A list write answered: the list or member (none for a delete), its seq, whether replayed. */
export interface ListWritten {
  readonly seq: number
  readonly replayed: boolean
  readonly changed: boolean
  readonly list?: List | undefined
  readonly member?: (Member & { readonly created: boolean }) | undefined
}

/** A page of lists: those of it, where the sequence stood, the last id when more may follow. */
export interface ListsPage extends AtSeq<List[]> {
  readonly lastId: number | undefined
}

type Keyed = { readonly caller: Caller; readonly key?: string | undefined }

/** If-Match and If-None-Match, as a list write checks them. */
type Conditions = {
  readonly ifMatch?: IfMatch | undefined
  readonly ifNoneMatch?: IfMatch | undefined
}

const digest = (value: unknown) =>
  createHash('sha256').update(JSON.stringify(value)).digest('base64url')

/**
 * Lists and their members, as a caller may read and change them: reads of the lists it
 * reads (any other is not found), and writes each committed in a transaction of its own, in
 * the one change sequence, its rights checked there (access-writes.ts) with the same rule
 * as every other check (`decide`).
 */
export class ListService {
  readonly #storage: Storage
  readonly #rights: RightsCache
  readonly #inFlight: KeysInFlight

  constructor(storage: Storage, rights: RightsCache, keysInFlight: KeysInFlight) {
    this.#storage = storage
    this.#rights = rights
    this.#inFlight = keysInFlight
  }

  /** GET /lists: the lists the caller reads, ascending, a page at a time. */
  async lists(caller: Caller, { limit, after = 0 }: ListListsQuery): Promise<ListsPage> {
    const max = limit ?? Number.MAX_SAFE_INTEGER
    const page = await this.#rights.withRights(caller, async (rights) =>
      this.#storage.access.lists(readableLists(rights), after, Math.min(max, 2 ** 31 - 1) + 1),
    )
    const more = page.value.length > max
    if (more) page.value.length = max
    return { ...page, lastId: more ? page.value.at(-1)?.id : undefined }
  }

  /** GET /lists/{id}. */
  async list(caller: Caller, id: number): Promise<AtSeq<List>> {
    const { value, ...at } = await this.#rights.withRights(caller, async (rights) => {
      const found = await this.#storage.access.list(id)
      const hidden = found.value !== undefined && decide(rights, id, 'read').verdict === 'hidden'
      return hidden ? { ...found, value: undefined } : found
    })
    if (value === undefined) throw new ListNotFoundError(id)
    return { value, ...at }
  }

  /** GET /lists/{id}/members: to whoever reads the list. */
  async members(caller: Caller, listId: number): Promise<AtSeq<Member[]>> {
    await this.list(caller, listId)
    return this.#storage.access.members(listId)
  }

  /** POST /list: the caller becomes the new list's owner. */
  async create(request: Keyed & { readonly name: string }): Promise<ListWritten> {
    return this.#write(request, { kind: 'create-list', name: request.name }, ['POST', request.name])
  }

  /** PATCH /lists/{id}: a new name. */
  rename(request: Keyed & { id: number; name: string } & Conditions) {
    const { id, name, ifMatch, ifNoneMatch } = request
    const write = { kind: 'rename-list', id, name, ifMatch, ifNoneMatch } as const
    return this.#write(request, write, ['PATCH', id, name])
  }

  /** DELETE /lists/{id}: the list and every task in it. */
  delete(request: Keyed & { id: number } & Conditions) {
    const { id, ifMatch, ifNoneMatch } = request
    return this.#write(request, { kind: 'delete-list', id, ifMatch, ifNoneMatch }, ['DELETE', id])
  }

  /** PUT /lists/{id}/members/{principal}. */
  putMember(request: Keyed & { listId: number; principal: string; role: Role }) {
    const { listId, principal, role } = request
    return this.#write(request, { kind: 'put-member', listId, principal, role }, [
      'PUT',
      listId,
      principal,
      role,
    ])
  }

  /** DELETE /lists/{id}/members/{principal}. */
  removeMember(request: Keyed & { listId: number; principal: string }) {
    const { listId, principal } = request
    return this.#write(request, { kind: 'remove-member', listId, principal }, [
      'DELETE',
      listId,
      principal,
    ])
  }

  async #write(
    { caller, key }: Keyed,
    write: DistributiveOmit<
      Exclude<AccessWrite, { kind: 'create-token' | 'revoke-token' }>,
      'caller' | 'key' | 'fingerprint'
    >,
    form: readonly unknown[],
  ): Promise<ListWritten> {
    const scoped = key === undefined ? undefined : keyOf(caller, key)
    return this.#inFlight.holding(scoped, async () => {
      const now = Date.now()
      const fingerprint = scoped === undefined ? '' : digest(['LIST', ...form])
      const outcome = await this.#storage.access.write(
        { ...write, caller, key: scoped, fingerprint } as AccessWrite,
        now,
        now - KEY_TTL_MS,
      )
      return written(outcome, 'id' in write ? write.id : 0)
    })
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never

/** An access write's outcome as answered, or the error that answers it. */
function written(outcome: AccessOutcome, listId: number): ListWritten {
  switch (outcome.result) {
    case 'written':
      return outcome
    case 'list-not-found':
      throw new ListNotFoundError(outcome.listId)
    case 'member-not-found':
      throw new MemberNotFoundError(outcome.listId, outcome.principal)
    case 'forbidden':
      throw forbiddenIn(outcome.listId, 'list', outcome)
    case 'cannot-create':
      throw new ForbiddenError(
        outcome.readOnly
          ? 'This credential is read-only: creating a list needs write access.'
          : `This credential is limited to lists ${outcome.lists.join(', ')}: it cannot create lists.`,
      )
    case 'precondition-failed':
      throw new PreconditionFailedError(listId, outcome.version, 'List')
    case 'key-conflict':
      throw new IdempotencyConflictError()
    case 'last-owner':
      throw new LastOwnerError(outcome.listId, outcome.principal)
    case 'token-not-found':
      throw new Error('A list write answered about a token.')
  }
}
