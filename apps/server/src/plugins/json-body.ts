import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import secureJson from 'secure-json-parse'
import { HttpError } from '../http/http-error.js'

/**
 * The JSON body parser: like Fastify's, with a precise message for each way a body fails.
 * Keys that could poison prototypes (`__proto__`, `constructor.prototype`) are refused.
 */
function parseJsonBody(
  _request: FastifyRequest,
  body: string | Buffer,
  done: (error: Error | null, value?: unknown) => void,
): void {
  if (body.length === 0) {
    done(new HttpError(400, 'The request body is empty; send a JSON object.'))
    return
  }
  let value: unknown
  try {
    // secure-json-parse would drop a leading byte order mark; JSON.parse does not.
    if (body.toString().charCodeAt(0) === 0xfeff) throw new SyntaxError('byte order mark')
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
  done(null, value)
}

/** Only JSON bodies: Fastify's text/plain parser goes, so any other type gets 415. */
export default fp(
  async function jsonBody(app: FastifyInstance) {
    app.removeAllContentTypeParsers()
    app.addContentTypeParser('application/json', { parseAs: 'string' }, parseJsonBody)
  },
  { name: 'json-body' },
)
