import type { NewToken } from '@tasklane/contract'
import {
  BadRequestError,
  ForbiddenError,
  OpenModeError,
  TokenNotFoundError,
} from '../domain/domain-errors.js'
import { type Access, type Caller, isAdmin } from '../domain/rights.js'
import type { Storage, TokenRecord } from '../storage/open-storage.js'
import type { Authenticator } from './authenticator.js'
import { newTokenSecret, tokenDigest } from './token-secret.js'

/** A token just made: its record, and its secret, shown this once. */
export interface MadeToken {
  readonly record: TokenRecord
  readonly secret: string
}

/**
 * Access tokens made, listed and revoked through the API. A caller makes tokens for itself
 * only (an admin, for anyone) and never with more than it has: no admin token unless it is
 * an admin, no write token from a read-only credential, no wider set of lists than its own.
 * The secret is returned once; only its digest is stored.
 */
export class TokenService {
  readonly #storage: Storage
  readonly #authenticator: Authenticator

  constructor(storage: Storage, authenticator: Authenticator) {
    this.#storage = storage
    this.#authenticator = authenticator
  }

  /**
   * POST /tokens. `notAfter`: when the access token the request is made with expires (a
   * token made with it expires by then, or it would outlive what made it).
   */
  async create(
    caller: Caller,
    body: NewToken,
    now = Date.now(),
    notAfter?: number,
  ): Promise<MadeToken> {
    if (!this.#authenticator.required) throw new OpenModeError()
    const principal = body.principal ?? caller.principal
    const role: Access = body.role ?? (caller.access === 'read' ? 'read' : 'write')
    const admin = isAdmin(caller)
    if (principal !== caller.principal && !admin) {
      throw new ForbiddenError(
        `Only an admin makes tokens for another principal; you are "${caller.principal}".`,
      )
    }
    if (role === 'admin' && !admin) throw new ForbiddenError('Only an admin makes admin tokens.')
    if (role === 'write' && caller.access === 'read') {
      throw new ForbiddenError('This credential is read-only: it makes read-only tokens only.')
    }
    if (caller.lists !== undefined) {
      const wider = body.lists === undefined || body.lists.some((id) => !caller.lists?.includes(id))
      if (wider) {
        throw new ForbiddenError(
          `This credential is limited to lists ${caller.lists.join(', ')}: a token made with it must name some of them in "lists".`,
        )
      }
    }
    const expiresAt = body.expiresAt === undefined ? undefined : Date.parse(body.expiresAt)
    if (expiresAt !== undefined && !(expiresAt > now)) {
      throw new BadRequestError('Field "expiresAt" must be a time in the future.')
    }
    if (notAfter !== undefined && !(expiresAt !== undefined && expiresAt <= notAfter)) {
      throw new ForbiddenError(
        `This credential expires at ${new Date(notAfter).toISOString()}: a token made with it must expire by then ("expiresAt").`,
      )
    }
    const secret = newTokenSecret()
    const token = {
      name: body.name,
      principal,
      role,
      lists: body.lists === undefined ? undefined : [...body.lists].sort((a, b) => a - b),
      hash: tokenDigest(secret),
      expiresAt,
    }
    const outcome = await this.#storage.access.write(
      { kind: 'create-token', caller, token },
      now,
      now,
    )
    if (outcome.result !== 'written' || outcome.token === undefined) {
      throw new Error('Storing a new token answered no token.')
    }
    return { record: outcome.token, secret }
  }

  /** GET /tokens: the caller's own (an admin: all), never a secret. */
  async list(caller: Caller): Promise<TokenRecord[]> {
    if (!this.#authenticator.required) throw new OpenModeError()
    return this.#storage.access.tokens(isAdmin(caller) ? undefined : caller.principal)
  }

  /**
   * DELETE /tokens/{id}: the next request with it gets 401, on every instance. A non-admin
   * revokes only what it could have made: a read-only credential read-only tokens, a
   * credential narrowed to some lists tokens narrowed to some of them.
   */
  async revoke(caller: Caller, id: number, now = Date.now()): Promise<number> {
    if (!isAdmin(caller) && (caller.access === 'read' || caller.lists !== undefined)) {
      const token = (await this.#storage.access.tokens(caller.principal)).find((t) => t.id === id)
      if (token !== undefined) refuseRevoking(caller, token)
    }
    const outcome = await this.#storage.access.write({ kind: 'revoke-token', caller, id }, now, now)
    if (outcome.result !== 'written') throw new TokenNotFoundError(id)
    return outcome.seq
  }
}

/** Throws ForbiddenError when `token` is more than `caller` could have made. */
function refuseRevoking(caller: Caller, token: TokenRecord): void {
  if (caller.access === 'read' && token.role !== 'read') {
    throw new ForbiddenError('This credential is read-only: it revokes read-only tokens only.')
  }
  const { lists } = caller
  if (lists !== undefined && (token.lists?.some((id) => !lists.includes(id)) ?? true)) {
    throw new ForbiddenError(
      `This credential is limited to lists ${lists.join(', ')}: it revokes only tokens limited to some of them.`,
    )
  }
}
