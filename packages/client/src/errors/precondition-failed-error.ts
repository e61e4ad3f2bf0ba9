import { ApiError } from './api-error.js'

/**
 * Thrown when a change's `ifMatch` no longer names the task's current version (HTTP 412):
 * someone else changed it first, and nothing was changed. `etag` and `version` are the
 * task's current ones, from the response's `ETag`: read the task again, then decide.
 */
export class PreconditionFailedError extends ApiError {
  override name = 'PreconditionFailedError'
  /** The task's current ETag, e.g. `"4"`; undefined if the response had none. */
  readonly etag = this.response.headers.get('etag') ?? undefined
  /** The task's current version, read from `etag`. */
  readonly version = versionOf(this.etag)
}

/** The version in a strong ETag `"<version>"`; undefined for anything else. */
export function versionOf(etag: string | null | undefined): number | undefined {
  const match = /^"(\d+)"$/.exec(etag ?? '')
  return match ? Number(match[1]) : undefined
}
