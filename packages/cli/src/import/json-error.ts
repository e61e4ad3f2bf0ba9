// Why a line is not JSON, and where: JSON.parse says why, in words that vary with the
// version of V8 and quote the text (which may be long, or hold escape sequences); not every
// message says where. The reason is kept without the quote, and the place is found here.

/** Thrown by the scanner at the offset where the text stops being JSON. */
class NotJsonAt {
  constructor(readonly offset: number) {}
}

const WHITESPACE = new Set([' ', '\t', '\n', '\r'])
const ESCAPED = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't'])
const HEX = /^[0-9a-fA-F]$/
const DIGIT = /^[0-9]$/

/**
 * The offset (UTF-16) of the first character at which `text` stops being one JSON value
 * (RFC 8259), its length when it ends too soon, or undefined when it is JSON.
 */
export function jsonErrorOffset(text: string): number | undefined {
  let at = 0
  const peek = () => text[at]
  const fail = (): never => {
    throw new NotJsonAt(at)
  }
  const expect = (char: string) => (peek() === char ? at++ : fail())
  const skipWhitespace = () => {
    while (WHITESPACE.has(peek() as string)) at++
  }
  const digits = () => {
    if (!DIGIT.test(peek() ?? '')) fail()
    while (DIGIT.test(peek() ?? '')) at++
  }
  const string = () => {
    expect('"')
    for (;;) {
      const char = peek()
      if (char === undefined || char < ' ') fail()
      at++
      if (char === '"') return
      if (char !== '\\') continue
      const escaped = peek() ?? fail()
      if (escaped === 'u') {
        at++
        for (let i = 0; i < 4; i++) HEX.test(peek() ?? '') ? at++ : fail()
      } else if (ESCAPED.has(escaped)) at++
      else fail()
    }
  }
  const number = () => {
    if (peek() === '-') at++
    if (peek() === '0') at++
    else digits()
    if (peek() === '.') {
      at++
      digits()
    }
    if (peek() === 'e' || peek() === 'E') {
      at++
      if (peek() === '+' || peek() === '-') at++
      digits()
    }
  }
  const sequence = (close: string, item: () => void) => {
    at++
    skipWhitespace()
    if (peek() === close) return void at++
    for (;;) {
      item()
      skipWhitespace()
      if (peek() === close) return void at++
      expect(',')
      skipWhitespace()
    }
  }
  const value = (): void => {
    skipWhitespace()
    const char = peek()
    if (char === '{') {
      sequence('}', () => {
        string()
        skipWhitespace()
        expect(':')
        value()
      })
    } else if (char === '[') sequence(']', value)
    else if (char === '"') string()
    else if (char === '-' || DIGIT.test(char ?? '')) number()
    else {
      const word = ['true', 'false', 'null'].find((literal) => literal[0] === char) ?? fail()
      for (const letter of word) expect(letter)
    }
  }
  try {
    value()
    skipWhitespace()
    return at === text.length ? undefined : at
  } catch (error) {
    if (error instanceof NotJsonAt) return error.offset
    throw error
  }
}

/**
 * `Unexpected token '}' at column 9`: JSON.parse's reason for refusing `text`, without the
 * text it quotes, and the column (counted in characters, from 1) where it stops being JSON.
 */
export function describeJsonError(text: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  const reason = message
    // `, "{"name":}" is not valid JSON`, or with `...` around a part of a long text.
    .replace(/, (?:\.\.\.)?"[\s\S]*"(?:\.\.\.)? is not valid JSON$/, '')
    .replace(/(?: in JSON)? at position \d+[\s\S]*$/, '')
  const stated = / at position (\d+)/.exec(message)?.[1]
  const offset = stated === undefined ? (jsonErrorOffset(text) ?? text.length) : Number(stated)
  return `${reason} at column ${[...text.slice(0, offset)].length + 1}`
}
