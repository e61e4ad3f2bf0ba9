/**
 * Who may see and change which lists: the one rule, as data. A request's Caller (its
 * principal and what its credential allows) and the principal's roles in lists make its
 * Rights; `decide` answers for one list and one action. The write algorithm (storage) and
 * the services (reads, lists, members, tokens) all ask `decide`, never an `if` of their own.
 */

/** A principal's role in a list: viewer reads; editor also changes tasks; owner also manages the list. */
export type Role = 'viewer' | 'editor' | 'owner'

/** What a credential allows: `read` no changes, `write` what the roles allow, `admin` everything. */
export type Access = 'read' | 'write' | 'admin'

/** What a request may attempt on a list. */
export type Action = 'read' | 'edit' | 'manage'

/** Who makes a request, as its credential says: plain data, it crosses to the writer thread. */
export interface Caller {
  /** The principal its changes are recorded as (`createdBy`, `updatedBy`). */
  readonly principal: string
  readonly access: Access
  /** Only these lists, whatever the roles (an access token's `lists`); undefined: no narrowing. */
  readonly lists?: readonly number[] | undefined
}

/** The principal of open mode, and the admin principal of `API_TOKEN`. */
export const LOCAL_PRINCIPAL = 'local'
export const ADMIN_PRINCIPAL = 'admin'

/** The caller of open mode: every request is the admin `local`. */
export const LOCAL_CALLER: Caller = { principal: LOCAL_PRINCIPAL, access: 'admin' }

/** A caller's rights: its credential, and its principal's role in each list it is a member of. */
export interface Rights {
  readonly caller: Caller
  /** Roles by list id; an admin's are not looked up (it acts as owner of every list). */
  readonly roles: ReadonlyMap<number, Role>
}

/** What `decide` answers: allowed, or why not. */
export type Decision =
  | { readonly verdict: 'allowed' }
  /** The caller cannot read the list: answered as if it did not exist. */
  | { readonly verdict: 'hidden' }
  /** The caller reads the list but may not do this: `role` is what it has there. */
  | { readonly verdict: 'forbidden'; readonly role: Role; readonly readOnly: boolean }

const RANK: Record<Role, number> = { viewer: 1, editor: 2, owner: 3 }
const NEEDS: Record<Action, Role> = { read: 'viewer', edit: 'editor', manage: 'owner' }

export const isAdmin = (caller: Caller): boolean => caller.access === 'admin'

/** The caller's own role in `listId` (an admin: owner), before its credential narrows it. */
function roleIn(rights: Rights, listId: number): Role | undefined {
  const { caller } = rights
  if (caller.lists !== undefined && !caller.lists.includes(listId)) return undefined
  return isAdmin(caller) ? 'owner' : rights.roles.get(listId)
}

/**
 * Whether the caller may do `action` in the list `listId` (which must exist: a missing list
 * is the caller's to report, as it reports a hidden one). A read-only credential reads
 * what its principal reads and changes nothing.
 */
export function decide(rights: Rights, listId: number, action: Action): Decision {
  const role = roleIn(rights, listId)
  if (role === undefined) return { verdict: 'hidden' }
  const readOnly = rights.caller.access === 'read'
  if (action === 'read') return { verdict: 'allowed' }
  if (readOnly || RANK[role] < RANK[NEEDS[action]]) return { verdict: 'forbidden', role, readOnly }
  return { verdict: 'allowed' }
}

/** The lists the caller reads, ascending; `all` for an admin without narrowing. */
export function readableLists(rights: Rights): readonly number[] | 'all' {
  const { caller } = rights
  if (isAdmin(caller)) return caller.lists === undefined ? 'all' : [...caller.lists].sort(byId)
  return [...rights.roles.keys()]
    .filter((id) => caller.lists === undefined || caller.lists.includes(id))
    .sort(byId)
}

/**
 * Where a new task goes when its create names no list: the lowest-id list among `lists`
 * (ascending ids of the lists that exist) that the caller may edit; undefined when none.
 */
export function defaultList(rights: Rights, lists: readonly number[]): number | undefined {
  return lists.find((id) => decide(rights, id, 'edit').verdict === 'allowed')
}

/** The role that `action` needs. */
export const roleNeeded = (action: Action): Role => NEEDS[action]

const byId = (a: number, b: number) => a - b
