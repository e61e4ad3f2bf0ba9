// The routes of credentials and of the caller itself, as data (see routes.ts).
import { Type } from '@sinclair/typebox'
import { ErrorBody } from './error.js'
import type { RouteDefinition } from './route-definition.js'
import { ref } from './task.js'
import { CreatedToken, Me, NewToken, Token, TokenParams } from './token.js'

const errorRef = ref(ErrorBody, { description: 'Unexpected error' })

/** The routes of access tokens and of the caller, keyed by operationId. */
export const accessRoutes = {
  createToken: {
    operationId: 'createToken',
    method: 'POST',
    path: '/tokens',
    tags: ['tokens'],
    summary: 'Make an access token; its secret is in this response only.',
    description:
      'The server keeps only a hash of the secret. A non-admin makes tokens for itself only, never with more than it has. When the server runs without credentials (open mode), 409.',
    body: ref(NewToken),
    response: { 201: ref(CreatedToken, { description: 'Created' }), default: errorRef },
    responseHeaders: { 201: ['Location'] },
    errors: {
      400: 'The body is not a valid NewToken (the message names the field).',
      403: 'A non-admin asked for another principal, the admin role, or more than it has: a wider role or set of lists, or (with an access token) no expiry or a later one than its own.',
      409: 'The server runs without credentials (open mode): set API_TOKEN to use tokens.',
      413: 'The body is larger than 64 KiB.',
      415: 'The body is not application/json.',
    },
  },
  getTokens: {
    operationId: 'getTokens',
    method: 'GET',
    path: '/tokens',
    tags: ['tokens'],
    summary: "List the caller's access tokens (an admin: every token), never their secrets.",
    description: 'Revoked tokens are not listed; expired ones are, with their expiresAt.',
    response: { 200: Type.Array(ref(Token), { description: 'Success' }), default: errorRef },
    errors: {
      409: 'The server runs without credentials (open mode): set API_TOKEN to use tokens.',
    },
  },
  deleteToken: {
    operationId: 'deleteToken',
    method: 'DELETE',
    path: '/tokens/{id}',
    tags: ['tokens'],
    summary: 'Revoke an access token: the next request with it gets 401, on every instance.',
    description:
      'A non-admin revokes its own tokens only, and only those it could have made (a read-only credential, read-only tokens; one limited to some lists, tokens limited to some of them); its open change feeds end within 5 s.',
    params: TokenParams,
    response: { 204: Type.Null({ description: 'Revoked' }), default: errorRef },
    responseHeaders: { 204: ['Tasklane-Seq'] },
    errors: {
      400: 'The id is not a whole number from 1 to 2^53−1.',
      403: 'The token is more than the credential could have made (a write token, to a read-only credential).',
      404: "No token has this id, or it is another principal's (to a non-admin).",
    },
  },
  getMe: {
    operationId: 'getMe',
    method: 'GET',
    path: '/me',
    tags: ['tokens'],
    summary: 'Who the caller is: its principal, what its credential allows, its roles.',
    description: 'In open mode (no credentials configured) everyone is the admin principal local.',
    response: { 200: ref(Me, { description: 'Success' }), default: errorRef },
    errors: {
      401: 'No credential, or one that is wrong, expired or revoked (when the server asks for credentials).',
    },
  },
} as const satisfies Record<string, RouteDefinition>
