import { describe, expect, it } from 'vitest'
import { checkHeaders } from '../../src/utils/check-headers.js'

describe('checkHeaders', () => {
  it('lets printable ASCII values, spaces and tabs through', () => {
    expect(() =>
      checkHeaders({
        authorization: 'Bearer abc.DEF-123_~+/=',
        'x-a': ' a\tb ',
        'last-event-id': '',
      }),
    ).not.toThrow()
  })

  it.each([
    ['CR LF', 'Bearer a\r\nx-admin: 1'],
    ['LF', 'Bearer a\nb'],
    ['NUL', 'Bearer a\0b'],
    ['a control character', 'Bearer a\u0001b'],
    ['é (Latin-1, which fetch would send as one byte)', 'Bearer é'],
    ['€ (beyond Latin-1, which fetch refuses)', 'Bearer €'],
  ])('throws a TypeError naming the header for %s, without quoting the value', (_what, value) => {
    const error = (() => {
      try {
        checkHeaders({ accept: 'application/json', authorization: value })
      } catch (e) {
        return e
      }
    })() as Error
    expect(error).toBeInstanceOf(TypeError)
    expect(error.message).toMatch(
      /^Invalid value for the "authorization" header: .* at index \d+\./,
    )
    expect(error.message).not.toContain(value)
  })

  it('throws a TypeError for a header name that is not a token', () => {
    expect(() => checkHeaders({ 'x bad': '1' })).toThrow(
      new TypeError('Invalid header name: "x bad".'),
    )
  })
})
