import { createRemoteJWKSet, errors, type JWTPayload, type JWTVerifyGetKey, jwtVerify } from 'jose'
import { KeysUnavailableError } from '../domain/domain-errors.js'
import type { Access } from '../domain/rights.js'

/** How JWTs from the app that embeds tasklane are checked. */
export interface JwtOptions {
  /** HS256 with this shared secret. */
  readonly secret?: string | undefined
  /** RS256, ES256 or EdDSA with the keys of the JSON Web Key Set at this URL. */
  readonly jwksUrl?: string | undefined
  readonly issuer?: string | undefined
  readonly audience?: string | undefined
}

/** What a verified JWT says: who, what it may do, until when. */
export interface VerifiedJwt {
  readonly principal: string
  readonly access: Extract<Access, 'read' | 'write'>
  /** `exp`, in ms since the epoch. */
  readonly expiresAt: number
}

/** Why a JWT was refused: the sentence its 401 says. */
export class JwtRefused extends Error {
  override name = 'JwtRefused'
}

/**
 * The least time between two fetches of the JWKS for a key it lacked: tokens naming unknown
 * keys cost the key server one request a second at most, and a rotated key waits no longer.
 */
const COOLDOWN_MS = 1000

/** The clock skew tolerated on `exp` and `nbf`. */
const CLOCK_TOLERANCE_S = 60

/** A principal as the API takes one: 1–128 visible ASCII characters. */
const PRINCIPAL = /^[\x21-\x7E]{1,128}$/

/**
 * Verifies JWTs with jose: only the configured algorithms (HS256 for a secret; RS256, ES256,
 * EdDSA for a JWKS, so that a token signed with a public key as an HMAC secret is refused),
 * never `alg: none`, `exp` and `sub` required, 60 s of clock skew, issuer and audience when
 * configured. The JWKS is fetched and cached by jose, and fetched again (at most once a
 * second) when a token names a key it does not hold: a rotated key is followed within a
 * second of the set's last fetch, where jose's 30 s refused a new key that long.
 */
export class JwtVerifier {
  readonly #key: Uint8Array | JWTVerifyGetKey
  readonly #algorithms: string[]
  readonly #options: JwtOptions

  constructor(options: JwtOptions) {
    this.#options = options
    if (options.secret !== undefined) {
      this.#key = new TextEncoder().encode(options.secret)
      this.#algorithms = ['HS256']
    } else if (options.jwksUrl !== undefined) {
      this.#key = createRemoteJWKSet(new URL(options.jwksUrl), { cooldownDuration: COOLDOWN_MS })
      this.#algorithms = ['RS256', 'ES256', 'EdDSA']
    } else {
      throw new Error('A JwtVerifier needs a secret or a JWKS URL.')
    }
  }

  /** The JWT's principal, access and expiry; rejects with JwtRefused saying why. */
  async verify(token: string): Promise<VerifiedJwt> {
    let payload: JWTPayload
    try {
      ;({ payload } = await jwtVerify(token, this.#key as Uint8Array, {
        algorithms: this.#algorithms,
        clockTolerance: CLOCK_TOLERANCE_S,
        requiredClaims: ['exp', 'sub'],
        ...(this.#options.issuer === undefined ? {} : { issuer: this.#options.issuer }),
        ...(this.#options.audience === undefined ? {} : { audience: this.#options.audience }),
      }))
    } catch (error) {
      // The keys could not be had (the JWKS URL timed out, refused, answered garbage):
      // nothing is known of the token, and a retry may work.
      if (unreachable(error)) throw new KeysUnavailableError({ cause: error })
      throw new JwtRefused(reason(error), { cause: error })
    }
    const { sub, exp } = payload as { sub: string; exp: number }
    if (!PRINCIPAL.test(sub)) {
      throw new JwtRefused('The JWT\'s "sub" is not a principal (1–128 visible ASCII characters).')
    }
    const role = payload.tasklane_role
    if (role !== undefined && role !== 'read' && role !== 'write') {
      throw new JwtRefused('The JWT\'s "tasklane_role" must be "read" or "write".')
    }
    return { principal: sub, access: role ?? 'write', expiresAt: exp * 1000 }
  }
}

/** The sentence a refused JWT's 401 says: what was wrong, never a key or the token. */
function reason(error: unknown): string {
  if (error instanceof errors.JWTExpired) return 'The JWT has expired.'
  if (error instanceof errors.JWTClaimValidationFailed) {
    const claim = error.claim
    if (claim === 'nbf') return 'The JWT is not valid yet ("nbf").'
    if (claim === 'iss' || claim === 'aud') return `The JWT's "${claim}" is not the one expected.`
    return `The JWT's "${claim}" claim is missing or not valid.`
  }
  if (error instanceof errors.JOSEAlgNotAllowed)
    return 'The JWT is signed with an algorithm this server does not accept.'
  if (error instanceof errors.JWKSNoMatchingKey) return 'No key of the JWKS matches the JWT.'
  if (error instanceof errors.JWSSignatureVerificationFailed)
    return "The JWT's signature is not valid."
  return 'The bearer token is not a valid JWT.'
}

/** Whether the JWKS could not be fetched, as opposed to a token found wanting. */
function unreachable(error: unknown): boolean {
  if (error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid) return true
  // A fetch that failed (refused, reset, DNS) or answered a non-2xx.
  return !(error instanceof errors.JOSEError) || error.code === 'ERR_JOSE_GENERIC'
}
