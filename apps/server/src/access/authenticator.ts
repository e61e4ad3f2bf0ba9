import { createHash, timingSafeEqual } from 'node:crypto'
import { UnauthenticatedError } from '../domain/domain-errors.js'
import { ADMIN_PRINCIPAL, type Caller, LOCAL_CALLER } from '../domain/rights.js'
import type { Storage, TokenRecord } from '../storage/open-storage.js'
import { JwtRefused, type JwtVerifier } from './jwt-verifier.js'
import { TOKEN_PREFIX } from './token-secret.js'

/** Who a request is, as its credential says, and how long that holds. */
export interface Credential {
  readonly caller: Caller
  /** When the credential stops working (ms since the epoch); undefined: never by itself. */
  readonly expiresAt?: number | undefined
  /** The access token it is, to check again for revocation. */
  readonly tokenHash?: string | undefined
}

/** The credential of open mode: everyone is the admin `local`. */
export const OPEN_CREDENTIAL: Credential = { caller: LOCAL_CALLER }

/** What the server accepts as credentials: API_TOKEN, JWTs, and (with either) access tokens. */
export interface AuthenticatorOptions {
  readonly apiToken?: string | undefined
  readonly jwt?: JwtVerifier | undefined
}

/** A verified JWT kept a while, by its digest: the next request with it costs no signature check. */
interface KeptJwt {
  readonly credential: Credential
}

/** Verified JWTs kept at most: past it the oldest go (a client that sends many new ones gains nothing). */
const KEPT_JWTS = 10_000

const sha256 = (value: string) => createHash('sha256').update(value).digest()

/** Three dot-separated parts, as a compact JWS has (no array of them made to count). */
const isJwtShaped = (token: string): boolean => {
  const first = token.indexOf('.')
  const second = first === -1 ? -1 : token.indexOf('.', first + 1)
  return second !== -1 && token.indexOf('.', second + 1) === -1
}

const refuse = (message: string) => new UnauthenticatedError(message, true)

const INVALID = 'The bearer token in the Authorization header is not valid.'

/**
 * Turns an `Authorization` header into a Credential. Open mode (no API_TOKEN and no JWT
 * setting): everyone is the admin `local`, whatever is sent. Otherwise a bearer token is
 * API_TOKEN (compared as SHA-256 digests, in constant time), an access token (`tl_…`,
 * looked up by its digest: never stored, logged or compared in clear), or a JWT. Access
 * tokens are kept in memory while the access seq they were read at stands, so a revocation
 * on any instance is seen by the next request here (the access seq is read once a turn).
 */
export class Authenticator {
  readonly #apiToken: Buffer | undefined
  readonly #jwt: JwtVerifier | undefined
  readonly #storage: Storage
  /** Access tokens by digest, as read at `#tokensAt` (the access seq). */
  readonly #tokens = new Map<string, TokenRecord | undefined>()
  #tokensAt = -1
  readonly #jwts = new Map<string, KeptJwt>()

  constructor(storage: Storage, { apiToken, jwt }: AuthenticatorOptions) {
    this.#storage = storage
    this.#apiToken = apiToken === undefined ? undefined : sha256(apiToken)
    this.#jwt = jwt
  }

  /** Whether credentials are asked for at all (false: open mode). */
  get required(): boolean {
    return this.#apiToken !== undefined || this.#jwt !== undefined
  }

  /** The credential `authorization` carries; rejects with UnauthenticatedError (401). */
  async authenticate(authorization: string | undefined): Promise<Credential> {
    if (!this.required) return OPEN_CREDENTIAL
    if (authorization === undefined || authorization === '') {
      throw new UnauthenticatedError(
        'The Authorization header is missing; send "Authorization: Bearer <token>".',
        false,
      )
    }
    const match = /^Bearer +(\S+) *$/i.exec(authorization)
    if (match === null) throw refuse(INVALID)
    const token = match[1] as string
    // One digest a request: compared with API_TOKEN's, then the key an access token is
    // looked up by (tokenDigest's hex) or a verified JWT kept under.
    const digest = sha256(token)
    if (this.#apiToken !== undefined && timingSafeEqual(digest, this.#apiToken)) {
      return { caller: { principal: ADMIN_PRINCIPAL, access: 'admin' } }
    }
    if (token.startsWith(TOKEN_PREFIX)) return this.#accessToken(digest.toString('hex'))
    if (this.#jwt !== undefined && isJwtShaped(token)) return this.#verifiedJwt(token, digest)
    throw refuse(INVALID)
  }

  /** Whether `credential` still works: not expired, its token not revoked (on any instance). */
  async stillValid(credential: Credential, now = Date.now()): Promise<boolean> {
    if (credential.expiresAt !== undefined && credential.expiresAt <= now) return false
    if (credential.tokenHash === undefined) return true
    const record = await this.#token(credential.tokenHash)
    return record !== undefined && !record.revoked
  }

  async #accessToken(hash: string): Promise<Credential> {
    const record = await this.#token(hash)
    // Unknown and revoked alike: nothing tells a guess from a token that once worked.
    if (record === undefined || record.revoked) throw refuse(INVALID)
    if (record.expiresAt !== undefined && record.expiresAt <= Date.now()) {
      throw refuse('The access token has expired.')
    }
    return {
      caller: { principal: record.principal, access: record.role, lists: record.lists },
      expiresAt: record.expiresAt,
      tokenHash: hash,
    }
  }

  /** The token with this digest, from memory while no right has changed since it was read. */
  async #token(hash: string): Promise<TokenRecord | undefined> {
    const { accessSeq } = await this.#storage.sequence()
    if (accessSeq !== this.#tokensAt) {
      this.#tokens.clear()
      this.#tokensAt = accessSeq
    }
    if (this.#tokens.has(hash)) return this.#tokens.get(hash)
    const { value: record, accessSeq: readAt } = await this.#storage.access.tokenByHash(hash)
    // Kept only if no right changed between the two reads; unknown digests are not kept,
    // so guessing cannot fill memory.
    if (record !== undefined && readAt === this.#tokensAt) this.#tokens.set(hash, record)
    return record
  }

  async #verifiedJwt(token: string, tokenSha256: Buffer): Promise<Credential> {
    const digest = tokenSha256.toString('base64url')
    const kept = this.#jwts.get(digest)
    if (kept !== undefined) {
      if ((kept.credential.expiresAt ?? 0) > Date.now()) return kept.credential
      this.#jwts.delete(digest)
    }
    try {
      const { principal, access, expiresAt } = await (this.#jwt as JwtVerifier).verify(token)
      const credential = { caller: { principal, access }, expiresAt: expiresAt + 60_000 }
      if (this.#jwts.size >= KEPT_JWTS) this.#jwts.delete(this.#jwts.keys().next().value as string)
      this.#jwts.set(digest, { credential })
      return credential
    } catch (error) {
      if (error instanceof JwtRefused) throw refuse(error.message)
      throw error
    }
  }
}
