import type { FastifyRequest } from 'fastify'
import secureJson from 'secure-json-parse'
import { HttpError } from './http-error.js'
import { LONE_SURROGATE } from './validation-message.js'

/** UTF-8 that fails on a malformed sequence rather than storing U+FFFD in its place. */
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })

/** The charset parameter of a Content-Type, unquoted and in lower case, if it has one. */
function charsetOf(contentType: string | undefined): string | undefined {
  const match = /;\s*charset\s*=\s*("?)([^";\s]*)\1/i.exec(contentType ?? '')
  return match?.[2]?.toLowerCase()
}

/** JSON text that may hold an unpaired surrogate: only an escape can (the bytes are UTF-8). */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/

/** The path (`notes.inner`) of the first string in `value` with an unpaired surrogate. */
function unpairedSurrogateAt(value: unknown, path: string[] = []): string | undefined {
  if (typeof value === 'string') return LONE_SURROGATE.test(value) ? path.join('.') : undefined
  if (value === null || typeof value !== 'object') return undefined
  for (const [key, inner] of Object.entries(value)) {
    const found = unpairedSurrogateAt(inner, [...path, key])
    if (found !== undefined) return found
  }
  return undefined
}

/**
 * The JSON body parser: like Fastify's, with a precise message for each way a body fails.
 * JSON is UTF-8 (RFC 8259): another charset is a 415, and bytes that are not UTF-8 a
 * 400, never text altered by replacement characters. Keys that could poison prototypes
 * (`__proto__`, `constructor.prototype`) are refused, and so is a string holding an
 * unpaired surrogate (`"\ud800"`).
 */
export function parseJsonBody(
  request: FastifyRequest,
  bytes: string | Buffer,
  done: (error: Error | null, value?: unknown) => void,
): void {
  const charset = charsetOf(request.headers['content-type'])
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
    done(
      new HttpError(
        415,
        `The request body must be UTF-8 JSON; Content-Type names the charset "${charset}".`,
      ),
    )
    return
  }
  if (bytes.length === 0) {
    done(new HttpError(400, 'The request body is empty; send a JSON object.'))
    return
  }
  let body: string
  try {
    body = typeof bytes === 'string' ? bytes : UTF8.decode(bytes)
  } catch {
    done(new HttpError(400, 'The request body is not valid UTF-8.'))
    return
  }
  let value: unknown
  try {
    // secure-json-parse would drop a leading byte order mark; JSON.parse does not.
    if (body.charCodeAt(0) === 0xfeff) throw new SyntaxError('byte order mark')
    // One parse; secure-json-parse scans the result only when the text holds a suspect key.
    value = secureJson.parse(body, null, { protoAction: 'error', constructorAction: 'error' })
  } catch (error) {
    const poisoned = (error as Error).message === 'Object contains forbidden prototype property'
    done(
      new HttpError(
        400,
        poisoned
          ? 'The request body must not contain "__proto__" or "constructor.prototype" keys.'
          : 'The request body is not valid JSON.',
      ),
    )
    return
  }
  // Refused here, not by the schemas: no pattern every JSON Schema validator reads can
  // name an unpaired surrogate, and such text is never stored, altered or not.
  const unpaired = SURROGATE_ESCAPE.test(body) ? unpairedSurrogateAt(value) : undefined
  if (unpaired !== undefined) {
    done(new HttpError(400, `Field "${unpaired}" must not contain an unpaired surrogate.`))
    return
  }
  done(null, value)
}
