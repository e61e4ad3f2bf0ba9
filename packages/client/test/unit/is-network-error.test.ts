import { createServer, get } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { isNetworkError } from '../../src/utils/is-network-error.js'

/** An error as a browser's fetch makes it: Safari's network errors have no stack. */
function browserError(message: string, { stack = true } = {}) {
  const error = new TypeError(message)
  if (!stack) Object.defineProperty(error, 'stack', { value: undefined })
  return error
}

describe('isNetworkError', () => {
  it.each([
    ['Node.js (undici)', 'fetch failed'],
    ['Chromium', 'Failed to fetch'],
    ['Chromium, naming the host', 'Failed to fetch (api.example.com)'],
    ['Firefox', 'NetworkError when attempting to fetch resource.'],
    ['Safari, a lost connection', 'The network connection was lost.'],
    ['Safari, offline', 'The Internet connection appears to be offline.'],
    ['Deno 1', 'error sending request for url (http://127.0.0.1:9/): connection refused'],
    [
      'Deno 2',
      'error sending request from 127.0.0.1:5 for http://127.0.0.1:9/ (127.0.0.1:9): client error (Connect)',
    ],
    ['React Native', 'Network request failed'],
  ])('recognises the network TypeError of %s', (_runtime, message) => {
    expect(isNetworkError(browserError(message))).toBe(true)
  })

  it("recognises Safari's generic 'Load failed' only without a stack", () => {
    expect(isNetworkError(browserError('Load failed', { stack: false }))).toBe(true)
    expect(isNetworkError(browserError('Load failed'))).toBe(false)
  })

  it('recognises Bun, whose errors carry the failure as their code', () => {
    const refused = Object.assign(
      new Error('Unable to connect. Is the computer able to access the url?'),
      {
        code: 'ConnectionRefused',
      },
    )
    expect(isNetworkError(refused)).toBe(true)
    expect(isNetworkError(Object.assign(new Error('x'), { code: 'SomethingElse' }))).toBe(false)
  })

  it("recognises Node's system errors, which a fetch built on node:http rejects with", async () => {
    const refused = await new Promise<Error>((resolve) => {
      get('http://127.0.0.1:9/').once('error', resolve)
    })
    expect(refused).toMatchObject({ code: 'ECONNREFUSED' })
    expect(isNetworkError(refused)).toBe(true)
    const hangUp = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' })
    expect(isNetworkError(hangUp)).toBe(true)
  })

  it('recognises an error from another realm by its shape', () => {
    expect(isNetworkError({ name: 'TypeError', message: 'Failed to fetch' })).toBe(true)
  })

  it.each([
    [
      'an invalid header value',
      new TypeError('Headers.append: "a\r\nb" is an invalid header value.'),
    ],
    [
      'a non-Latin-1 header value',
      new TypeError(
        'Cannot convert argument to a ByteString because the character at index 7 has a value of 8364 which is greater than 255.',
      ),
    ],
    ['an invalid URL', new TypeError('Failed to parse URL from nota url')],
    ['a GET with a body', new TypeError('Request with GET/HEAD method cannot have body.')],
    ['a known message on an error that is no TypeError', new Error('fetch failed')],
    ['an abort', new DOMException('This operation was aborted', 'AbortError')],
    ['not an error at all', 'fetch failed'],
    ['a TypeError-like object without a message', { name: 'TypeError' }],
    ['nothing', undefined],
  ])('rejects %s', (_what, error) => {
    expect(isNetworkError(error)).toBe(false)
  })

  it("tells Node's own rejections apart: refused is a network error, a bad argument is not", async () => {
    const refused = await fetch('http://127.0.0.1:9/').catch((e: unknown) => e)
    expect(isNetworkError(refused)).toBe(true)
    const server = createServer((_req, res) => res.end())
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
      // undici accepts the header, then its dispatcher refuses it: "fetch failed" all the same.
      const badArgument = await fetch(url, { headers: { x: 'a\u0001b' } }).catch((e: unknown) => e)
      expect(badArgument).toMatchObject({ message: 'fetch failed' })
      expect(isNetworkError(badArgument)).toBe(false)
      const badHeader = await fetch(url, { headers: { x: 'a\r\nb' } }).catch((e: unknown) => e)
      expect(isNetworkError(badHeader)).toBe(false)
    } finally {
      server.close()
    }
  })
})
