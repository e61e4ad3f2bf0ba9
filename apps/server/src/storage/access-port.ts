// The storage of lists, members and access tokens: what the access services read and
// write. Every write is one transaction in the one change sequence (access-writes.ts).
import type { List, Member } from '@tasklane/contract'
import type { Access, Caller, Role } from '../domain/rights.js'
import type { AtSeq, IfMatch } from './terms.js'
import type { Membership } from './write-port.js'

/** What every write of lists and members carries: who asks, and its Idempotency-Key. */
interface Keyed {
  readonly caller: Caller
  /** Scoped to the caller's principal (keyOf). */
  readonly key?: string | undefined
  /** Digest of the method, path and body; a repeated key replays only when it matches. */
  readonly fingerprint: string
}

/** A token to store: its secret only as a digest. */
export interface NewTokenRecord {
  readonly name: string
  readonly principal: string
  readonly role: Access
  readonly lists: readonly number[] | undefined
  /** SHA-256 of the secret, hex. */
  readonly hash: string
  readonly expiresAt: number | undefined
}

/** An access token as stored (never its secret). */
export interface TokenRecord extends Omit<NewTokenRecord, 'hash'> {
  readonly id: number
  readonly createdAt: number
  readonly createdBy: string
  readonly revoked: boolean
}

/** One write of lists, members or tokens. */
export type AccessWrite =
  | (Keyed & { readonly kind: 'create-list'; readonly name: string })
  | (Keyed & {
      readonly kind: 'rename-list'
      readonly id: number
      readonly name: string
      readonly ifMatch?: IfMatch | undefined
      readonly ifNoneMatch?: IfMatch | undefined
    })
  | (Keyed & {
      readonly kind: 'delete-list'
      readonly id: number
      readonly ifMatch?: IfMatch | undefined
      readonly ifNoneMatch?: IfMatch | undefined
    })
  | (Keyed & {
      readonly kind: 'put-member'
      readonly listId: number
      readonly principal: string
      readonly role: Role
    })
  | (Keyed & {
      readonly kind: 'remove-member'
      readonly listId: number
      readonly principal: string
    })
  | { readonly kind: 'create-token'; readonly caller: Caller; readonly token: NewTokenRecord }
  | { readonly kind: 'revoke-token'; readonly caller: Caller; readonly id: number }

/**
 * What an access write came to. Written: the list, member or token as answered (none for a
 * delete or removal), the seq of the change (of the latest one when nothing changed),
 * whether it replays a stored response, whether it changed anything; a new member says so.
 * Otherwise: the list is missing or hidden from the caller; the member or token is; the
 * caller reads the list but may not manage it; If-Match failed; the key was used with
 * another request; the change would leave the list without an owner.
 */
export type AccessOutcome =
  | {
      readonly result: 'written'
      readonly seq: number
      readonly replayed: boolean
      readonly changed: boolean
      readonly list?: List | undefined
      readonly member?: (Member & { readonly created: boolean }) | undefined
      readonly token?: TokenRecord | undefined
    }
  | { readonly result: 'list-not-found'; readonly listId: number }
  | { readonly result: 'member-not-found'; readonly listId: number; readonly principal: string }
  | { readonly result: 'token-not-found'; readonly id: number }
  | {
      readonly result: 'forbidden'
      readonly listId: number
      readonly role: Role | undefined
      readonly readOnly: boolean
    }
  | { readonly result: 'precondition-failed'; readonly version: number }
  /** The credential may not create lists: read-only, or limited to some lists. */
  | {
      readonly result: 'cannot-create'
      readonly readOnly: boolean
      readonly lists: readonly number[]
    }
  | { readonly result: 'key-conflict' }
  | { readonly result: 'last-owner'; readonly listId: number; readonly principal: string }

/** The lists, members and tokens of the Storage port (see access-reads.ts, access-writes.ts). */
export interface AccessStorage {
  /** A principal's roles in every list it is a member of, and the sequence they were read at. */
  memberships(principal: string): Promise<AtSeq<Membership[]>>
  /** The seq of the first change to `principal`'s right to read a list after `after`, if any. */
  firstAccessChange(principal: string, after: number): Promise<number | undefined>
  /** The token whose secret has this SHA-256 digest (hex), revoked or not. */
  tokenByHash(hash: string): Promise<AtSeq<TokenRecord | undefined>>
  /** Tokens not revoked: of one principal, or (undefined) of all. */
  tokens(principal: string | undefined): Promise<TokenRecord[]>
  /** Up to `limit` live lists above `after`, ascending: all, or those among `only`. */
  lists(only: readonly number[] | 'all', after: number, limit: number): Promise<AtSeq<List[]>>
  /** The live list with this id. */
  list(id: number): Promise<AtSeq<List | undefined>>
  /** A list's members, by principal. */
  members(listId: number): Promise<AtSeq<Member[]>>
  /** Commits one write of lists, members or tokens in a transaction of its own. */
  write(write: AccessWrite, now: number, notBefore: number): Promise<AccessOutcome>
}

/** What a backend's access write answers: the outcome, and the seqs it took. */
export interface AccessWritten {
  readonly outcome: AccessOutcome
  /** The newest seq it wrote; 0 when it wrote none. */
  readonly newest: number
  /** Whether it changed anyone's rights (then the access seq is `newest`). */
  readonly accessChanged: boolean
}

/** Where an access write's transaction stands: the seqs it has taken so far. */
export interface Sequencer {
  /** The next seq of this transaction. */
  next(): number
  /** The newest seq this transaction took, 0 when none. */
  readonly newest: number
}
