import { createHash, randomBytes } from 'node:crypto'

/** What every access token starts with: a secret scanner (or a person) can tell one. */
export const TOKEN_PREFIX = 'tl_'

/** Random bytes in a token: 256 bits, beyond guessing. */
const TOKEN_BYTES = 32

/** A new access token's secret: `tl_` and 32 random bytes, base64url (43 characters). */
export const newTokenSecret = (): string =>
  TOKEN_PREFIX + randomBytes(TOKEN_BYTES).toString('base64url')

/**
 * What the server keeps of a token: its SHA-256 digest (hex). A fast hash is enough for a
 * secret of 256 random bits (nothing to brute-force); looked up by digest, the secret is
 * never compared, stored or logged in clear.
 */
export const tokenDigest = (token: string): string =>
  createHash('sha256').update(token).digest('hex')
