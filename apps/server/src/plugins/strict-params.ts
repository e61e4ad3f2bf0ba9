import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify'
import fp from 'fastify-plugin'
import { HttpError } from '../http/http-error.js'

type Part = 'query' | 'params' | 'headers'
type Schema = {
  properties?: Record<string, { type?: unknown }>
  additionalProperties?: unknown
}

const DECIMAL_INTEGER = /^-?\d+$/

function integerKeys(schema: unknown): string[] {
  const properties = (schema as Schema | undefined)?.properties ?? {}
  return Object.keys(properties).filter((key) => properties[key]?.type === 'integer')
}

/**
 * A decimal integer as a number. One too large for a double becomes the largest double
 * (of its sign), so that the schema's range check names the parameter and its bound
 * rather than calling a run of digits "not an integer".
 */
function decimal(value: string): number {
  const number = Number(value)
  return Number.isFinite(number) ? number : Math.sign(number) * Number.MAX_VALUE
}

/** Decodes one part of a query string; undefined when it is not percent-encoded UTF-8. */
function decoded(part: string): string | undefined {
  try {
    return decodeURIComponent(part.replaceAll('+', ' '))
  } catch {
    return undefined
  }
}

/**
 * The query string's first parameter whose name or value is not percent-encoded UTF-8
 * (`tag=%FF`, `tag=100%`): the parser would pass on U+FFFD or the text as it came, so a
 * filter would silently match nothing. Its name, or `undefined` when all are sound.
 */
function badlyEncoded(url: string): { name: string } | undefined {
  const start = url.indexOf('?')
  if (start === -1 || !url.includes('%', start)) return undefined
  for (const pair of url.slice(start + 1).split('&')) {
    const equals = pair.indexOf('=')
    const rawName = equals === -1 ? pair : pair.slice(0, equals)
    const name = decoded(rawName)
    if (name === undefined) return { name: rawName }
    if (equals !== -1 && decoded(pair.slice(equals + 1)) === undefined) return { name }
  }
  return undefined
}

/**
 * Validation never coerces types (`{"name": 123}` stays a number and is rejected), so
 * query, path and header values, which are strings on the wire, are converted here: a plain
 * decimal integer becomes a number, anything else (`1.5`, `1e3`, `0x10`, ``) stays a
 * string and fails the schema. A repeated query parameter is an error of its own, and
 * so are several unknown ones: the message names them all.
 */
async function strictParams(app: FastifyInstance): Promise<void> {
  app.addHook('onRoute', (route: RouteOptions) => {
    const parts: [Part, string[]][] = [
      ['query', integerKeys(route.schema?.querystring)],
      ['params', integerKeys(route.schema?.params)],
      ['headers', integerKeys(route.schema?.headers)],
    ]
    const querySchema = route.schema?.querystring as Schema | undefined
    const known =
      querySchema?.additionalProperties === false
        ? new Set(Object.keys(querySchema.properties ?? {}))
        : undefined
    // A callback hook, not an async one: it runs on every request and never waits.
    const hook = (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) => {
      const bad = badlyEncoded(request.url)
      if (bad !== undefined) {
        done(
          new HttpError(400, `Query parameter "${bad.name}" is not valid percent-encoded UTF-8.`),
        )
        return
      }
      const query = request.query as Record<string, unknown>
      let unknown: string[] | undefined
      for (const key in query) {
        if (Array.isArray(query[key])) {
          done(new HttpError(400, `Query parameter "${key}" must be given only once.`))
          return
        }
        if (known && !known.has(key)) {
          unknown ??= []
          unknown.push(`"${key}"`)
        }
      }
      // One unknown parameter is named by the schema's own check; several, all at once.
      if (unknown && unknown.length > 1) {
        done(new HttpError(400, `Unknown query parameters ${unknown.join(', ')}.`))
        return
      }
      for (const [part, keys] of parts) {
        const values = request[part] as Record<string, unknown>
        for (const key of keys) {
          const value = values[key]
          if (typeof value === 'string' && DECIMAL_INTEGER.test(value)) values[key] = decimal(value)
        }
      }
      done()
    }
    route.preValidation = [hook, ...[route.preValidation ?? []].flat()]
  })
}

export default fp(strictParams, { name: 'strict-params' })
