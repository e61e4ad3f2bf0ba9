import type { FastifyRequest } from 'fastify'
import { describe, expect, it } from 'vitest'
import { HttpError } from '../src/http/http-error.js'
import { parseJsonBody } from '../src/http/json-body-parser.js'

/** What the parser makes of `text` as an application/json body. */
function parse(text: string): { error: Error | null; value?: unknown } {
  let result: { error: Error | null; value?: unknown } = { error: null }
  const request = { headers: { 'content-type': 'application/json' } } as FastifyRequest
  parseJsonBody(request, Buffer.from(text), (error, value) => {
    result = { error, value }
  })
  return result
}

// The contract's patterns cannot name an unpaired surrogate in a way every JSON Schema
// validator reads: the parser refuses one itself, whatever a field's schema says.
describe('parseJsonBody', () => {
  it.each([
    ['{"name":"a\\ud800"}', 'name'],
    ['{"name":"a","tag":"\\udc00x"}', 'tag'],
    ['{"name":"ok","notes":{"inner":"\\udbff"}}', 'notes.inner'],
  ])('refuses %s with 400 naming the field that holds an unpaired surrogate', (text, field) => {
    const { error } = parse(text)
    expect(error).toBeInstanceOf(HttpError)
    expect({ status: (error as HttpError).statusCode, message: error?.message }).toEqual({
      status: 400,
      message: `Field "${field}" must not contain an unpaired surrogate.`,
    })
  })

  it('takes surrogate pairs (emoji) as they are', () => {
    expect(parse('{"name":"\\ud83d\\ude00 😀"}')).toEqual({ error: null, value: { name: '😀 😀' } })
  })
})
