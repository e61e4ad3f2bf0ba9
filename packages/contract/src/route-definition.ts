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
  readonly response: Readonly<Record<number | 'default', TSchema>>
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
