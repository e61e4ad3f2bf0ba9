import { type Caller, isAdmin, type Rights, type Role } from '../domain/rights.js'
import type { Storage } from '../storage/open-storage.js'

/** A caller's rights and the access seq they were read at: they hold while it stands. */
export interface HeldRights extends Rights {
  /** The access seq the roles were read at; -1 for an admin, whose rights no change alters. */
  readonly accessSeq: number
}

/** A read made with some rights, that says under which access seq it was made. */
export interface ReadUnder {
  readonly accessSeq: number
  /** Lets go of what the read holds, when it is set aside (a streamed listing's snapshot). */
  readonly discard?: (() => void) | undefined
}

/** Principals whose roles are kept at once; past it the memory starts over. */
const KEPT_PRINCIPALS = 100_000

/** How often a read starts over because rights changed while it was made. */
const MAX_ATTEMPTS = 5

const NO_ROLES: ReadonlyMap<number, Role> = new Map()

/**
 * Each principal's roles, as data, kept in memory while the access seq they were read at is
 * the newest: a request's check costs no database round trip in steady state, and a
 * membership change on any instance is seen by the next request here (the access seq is
 * read once per turn of the event loop, with the newest seq). A read made with rights
 * checks the access seq of its own snapshot; when rights changed in between, it is made
 * again with the new ones (`withRights`), so no answer mixes the rights of two moments.
 */
export class RightsCache {
  readonly #storage: Storage
  readonly #roles = new Map<string, ReadonlyMap<number, Role>>()
  /** The access seq the kept roles were read at. */
  #at = -1

  constructor(storage: Storage) {
    this.#storage = storage
  }

  /** The caller's rights now. */
  async rightsOf(caller: Caller): Promise<HeldRights> {
    if (isAdmin(caller)) return { caller, roles: NO_ROLES, accessSeq: -1 }
    const { accessSeq } = await this.#storage.sequence()
    if (accessSeq !== this.#at) {
      this.#roles.clear()
      this.#at = accessSeq
    }
    const kept = this.#roles.get(caller.principal)
    if (kept !== undefined) return { caller, roles: kept, accessSeq }
    const { value, accessSeq: readAt } = await this.#storage.access.memberships(caller.principal)
    const roles = new Map(value.map(({ listId, role }) => [listId, role]))
    if (readAt === this.#at) {
      if (this.#roles.size >= KEPT_PRINCIPALS) this.#roles.clear()
      this.#roles.set(caller.principal, roles)
    }
    return { caller, roles, accessSeq: readAt }
  }

  /**
   * `read` made with the caller's rights, and made again with new ones while the read's own
   * snapshot shows that rights changed since they were read.
   */
  async withRights<T extends ReadUnder>(
    caller: Caller,
    read: (rights: HeldRights) => Promise<T>,
  ): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const rights = await this.rightsOf(caller)
      const result = await read(rights)
      if (rights.accessSeq === -1 || result.accessSeq === rights.accessSeq) return result
      if (attempt === MAX_ATTEMPTS) {
        throw new Error(`Rights changed under ${MAX_ATTEMPTS} reads in a row.`)
      }
      // What was read with the old rights is set aside; the next attempt reads them anew.
      this.#forget(caller.principal)
      result.discard?.()
    }
  }

  #forget(principal: string): void {
    this.#roles.delete(principal)
  }
}
