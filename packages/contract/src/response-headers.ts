// The response headers the API documents, each with what it means and the schema of its value.
import { type TSchema, Type } from '@sinclair/typebox'

/** The error statuses a route may answer, each with an Error body. */
export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 412 | 413 | 415 | 422 | 429 | 503

/** A response header: what it means, and the schema of its value. */
export interface HeaderDefinition {
  readonly description: string
  readonly schema: TSchema
}

/** Every response header the API documents, by name. */
export const responseHeaders = {
  Location: {
    description: 'Path of the created resource.',
    schema: Type.String({ examples: ['/tasks/1'] }),
  },
  Link: {
    description:
      'RFC 8288 link to the next page (rel="next"), sent when the page holds `limit` tasks and more exist: `after=<last id>`, or `before=<last id>&order=desc` when newest first.',
    schema: Type.String({ examples: ['</tasks?limit=20&after=20>; rel="next"'] }),
  },
  'Idempotent-Replayed': {
    description:
      'true when this is the stored response to an earlier request with the same Idempotency-Key.',
    schema: Type.String({ enum: ['true'] }),
  },
  ETag: {
    description:
      'The version of the task (or list) as a strong entity tag, `"<version>"`: send it back in If-Match to change it only if nobody else has.',
    schema: Type.String({ examples: ['"3"'] }),
  },
  'Tasklane-Seq': {
    description:
      'The change sequence number this answer reflects: every change up to it and none after. For a write, the seq of its own change. Watch the feed after it to miss nothing.',
    schema: Type.Integer({ minimum: 0, examples: [42] }),
  },
  'Retry-After': {
    description: 'Seconds to wait before sending the request again.',
    schema: Type.Integer({ minimum: 0, examples: [1] }),
  },
  'WWW-Authenticate': {
    description: 'The scheme to authenticate with: Bearer.',
    schema: Type.String({ examples: ['Bearer realm="tasklane"'] }),
  },
  'X-RateLimit-Limit': {
    description:
      'Requests a minute each client address may send (when the server has a rate limit).',
    schema: Type.Integer({ minimum: 0 }),
  },
  'X-RateLimit-Remaining': {
    description: 'Requests left in the current minute (when the server has a rate limit).',
    schema: Type.Integer({ minimum: 0 }),
  },
  'X-RateLimit-Reset': {
    description: 'Seconds until the current minute ends (when the server has a rate limit).',
    schema: Type.Integer({ minimum: 0 }),
  },
} as const satisfies Record<string, HeaderDefinition>

/** The name of a documented response header. */
export type ResponseHeaderName = keyof typeof responseHeaders
