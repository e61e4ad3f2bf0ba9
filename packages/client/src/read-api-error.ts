import { ApiError } from './errors/api-error.js'
import { PreconditionFailedError } from './errors/precondition-failed-error.js'
import { readChunks } from './utils/read-chunks.js'

/**
 * The most of an error body the client reads, in bytes: 1 MiB, far above any Error body
 * (a proxy's HTML page included), so that a server sending an endless one cannot make the
 * client buffer without bound. Past it the rest is not read and the body is cancelled.
 */
export const MAX_ERROR_BODY_BYTES = 2 ** 20

/** The body as text; undefined when it is longer than `maxBytes` (its reading then stopped). */
async function readCapped(response: Response, maxBytes: number): Promise<string | undefined> {
  const decoder = new TextDecoder()
  let text = ''
  let bytes = 0
  try {
    for await (const chunk of readChunks(response.body, () => {})) {
      bytes += chunk.byteLength
      if (bytes > maxBytes) return undefined
      text += decoder.decode(chunk, { stream: true })
    }
  } catch {
    // A body that broke off says nothing more than its status does.
    return ''
  }
  return text + decoder.decode()
}

/**
 * The ApiError of a non-2xx response, from its `{ code, message }` body when it has one; a
 * PreconditionFailedError for a 412.
 */
export async function readApiError(
  response: Response,
  method: string,
  url: string,
): Promise<ApiError> {
  const { status } = response
  const text = await readCapped(response, MAX_ERROR_BODY_BYTES)
  let body: unknown = text || undefined
  try {
    body = JSON.parse(text as string)
  } catch {}
  // Any JSON may come back, `null` included: only an object with a string message is an Error body.
  const error = body as { code?: unknown; message?: unknown } | null | undefined
  const valid = typeof error === 'object' && error !== null && typeof error.message === 'string'
  const message = valid
    ? (error.message as string)
    : `Request failed with status ${status}: ${method} ${url}${
        text === undefined
          ? ` (its body is over the client's limit of ${MAX_ERROR_BODY_BYTES} bytes and was not read)`
          : ''
      }`
  const code = valid && typeof error.code === 'number' ? error.code : status
  return new (status === 412 ? PreconditionFailedError : ApiError)(
    status,
    code,
    message,
    method,
    url,
    body as ApiError['body'],
    response,
  )
}
