import { Type } from '@sinclair/typebox'
import { setting } from './setting.js'

/**
 * The settings of JWT credentials, for an app that embeds tasklane and signs a token for
 * each of its users (`sub` is the principal). Either a shared secret or a JWKS URL (both
 * set: the start stops with a ConfigError); with
 * neither and no API_TOKEN, the server runs in open mode.
 */
export const authSettings = {
  authJwtSecret: setting(
    Type.Optional(
      Type.String({
        minLength: 32,
        description:
          'Accept JWTs signed with this HS256 secret (at least 32 characters): `sub` is the principal, `exp` is required, a `tasklane_role` claim (read or write) narrows it.',
      }),
    ),
    { env: 'AUTH_JWT_SECRET', expected: 'at least 32 characters', secret: true },
  ),
  authJwksUrl: setting(
    Type.Optional(
      Type.String({
        pattern: '^https?://',
        description:
          'Accept JWTs signed (RS256, ES256 or EdDSA) with a key of the JSON Web Key Set at this URL, fetched and cached; a rotated key is fetched when a token names it.',
      }),
    ),
    { env: 'AUTH_JWKS_URL', expected: 'an http:// or https:// URL' },
  ),
  authJwtIssuer: setting(
    Type.Optional(Type.String({ minLength: 1, description: 'The `iss` every JWT must carry.' })),
    { env: 'AUTH_JWT_ISSUER' },
  ),
  authJwtAudience: setting(
    Type.Optional(
      Type.String({ minLength: 1, description: 'The `aud` every JWT must carry (one of).' }),
    ),
    { env: 'AUTH_JWT_AUDIENCE' },
  ),
}
