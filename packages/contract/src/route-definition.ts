import type { TSchema } from '@sinclair/typebox'
import type { ErrorStatus, ResponseHeaderName } from './response-headers.js'

/** One route of the API as plain data, read by the server (to register) and the client. */
export interface RouteDefinition {
  readonly operationId: string
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  /** OpenAPI-style path: `/tasks/{id}`. */
  readonly path: string
  readonly tags: readonly string[]
  readonly summary: string
  /** Longer prose for the API reference, when the summary is not enough. */
  readonly description?: string
  readonly querystring?: TSchema
  readonly params?: TSchema
  readonly headers?: TSchema
  readonly body?: TSchema
  /** The media types the body may have, when not only `application/json`. */
  readonly consumes?: readonly string[]
  readonly response: Readonly<Record<number | 'default', TSchema>>
  /**
   * Bodies a client may ask for instead of JSON (with Accept), by status and media type:
   * the document lists them beside JSON's, which the response schema gives.
   */
  readonly media?: Readonly<Partial<Record<number, Readonly<Record<string, TSchema>>>>>
  /** OpenAPI links from a response, by status: the operations its values lead to. */
  readonly links?: Readonly<Partial<Record<number, Readonly<Record<string, RouteLink>>>>>
  /**
   * The headers of its responses, by status. Omitted: none besides those of `commonErrors`.
   */
  readonly responseHeaders?: Readonly<Partial<Record<number, readonly ResponseHeaderName[]>>>
  /**
   * The errors of this route, by status, each with what causes it. Omitted: only the
   * errors every route may answer (`commonErrors`).
   */
  readonly errors?: Readonly<Partial<Record<ErrorStatus, string>>>
}

/** An OpenAPI link: another operation, and where its parameters come from in a response. */
export interface RouteLink {
  readonly operationId: string
  /** Each parameter's runtime expression: `$response.body#/id`. */
  readonly parameters: Readonly<Record<string, string>>
  readonly description: string
}

/**
 * What a PATCH body may be: a JSON Merge Patch (RFC 7396) or plain JSON, the first the one a
 * generated client sends.
 */
export const PATCH_MEDIA_TYPES = ['application/merge-patch+json', 'application/json'] as const
