import { describe, expect, it } from 'vitest'
import { LineSplitter, MAX_LINE_LENGTH } from '../../src/line-splitter.js'
import { ndjsonRecords } from '../../src/ndjson.js'

const bytes = (text: string) => new TextEncoder().encode(text)

/** The lines of a stream that arrives in exactly these chunks, the unterminated last one included. */
function split(chunks: (string | Uint8Array)[], maxLength?: number): string[] {
  const splitter = new LineSplitter(maxLength)
  const lines = chunks.flatMap((chunk) => splitter.push(chunk))
  return [...lines, splitter.end()]
}

describe('LineSplitter', () => {
  it('ends a line at \\n, \\r\\n or \\r', () => {
    expect(split(['a\nb\r\nc\rd'])).toEqual(['a', 'b', 'c', 'd'])
    expect(split(['\n\r\n\r'])).toEqual(['', '', '', ''])
  })

  it('takes a \\r\\n split between chunks, even by empty chunks, for one line end', () => {
    expect(split(['a\r', '\nb'])).toEqual(['a', 'b'])
    expect(split(['a\r', '', '\n', '\nb'])).toEqual(['a', '', 'b'])
    expect(split([bytes('a\r'), bytes('\n'), bytes('b')])).toEqual(['a', 'b'])
  })

  it('ends a line at a \\r that ends a chunk, without waiting for the next chunk', () => {
    const splitter = new LineSplitter()
    expect(splitter.push('a\r')).toEqual(['a'])
    expect(splitter.push('b\n')).toEqual(['b'])
  })

  it('keeps a character whose UTF-8 bytes are split between chunks', () => {
    const rocket = bytes('🚀\n')
    expect(split([rocket.slice(0, 2), rocket.slice(2)])).toEqual(['🚀', ''])
  })

  it('drops one leading byte order mark, of bytes (even split) or of text, and only one', () => {
    const bom = [0xef, 0xbb, 0xbf]
    expect(
      split([new Uint8Array(bom.slice(0, 1)), new Uint8Array([...bom.slice(1), 0x61])]),
    ).toEqual(['a'])
    expect(split(['', '\uFEFFa'])).toEqual(['a'])
    expect(split(['\uFEFF\uFEFFa'])).toEqual(['\uFEFFa'])
    expect(split(['a', '\uFEFFb'])).toEqual(['a\uFEFFb'])
  })

  it('accepts a line of maxLength characters and throws a RangeError past it', () => {
    expect(split(['abc\n'], 3)).toEqual(['abc', ''])
    expect(() => split(['abcd\n'], 3)).toThrow(RangeError)
    expect(() => split(['abcd\n'], 3)).toThrow(
      "A line is longer than the client's limit of 3 characters",
    )
  })

  it('throws as soon as an unfinished line is over the limit, before its end arrives', () => {
    const splitter = new LineSplitter(5)
    expect(splitter.push('ab')).toEqual([])
    expect(() => splitter.push('cdef')).toThrow(RangeError)
  })

  it('defaults to a limit of 2^20 characters', () => {
    expect(new LineSplitter().maxLength).toBe(MAX_LINE_LENGTH)
    expect(MAX_LINE_LENGTH).toBe(1_048_576)
    expect(split(['x'.repeat(MAX_LINE_LENGTH)])).toEqual(['x'.repeat(MAX_LINE_LENGTH)])
    expect(() => split(['x'.repeat(MAX_LINE_LENGTH + 1)])).toThrow(RangeError)
  })
})

describe('ndjsonRecords', () => {
  async function* source(chunks: string[], log: string[]) {
    try {
      for (const chunk of chunks) yield bytes(chunk)
      log.push('done')
    } finally {
      log.push('closed')
    }
  }

  it('yields each non-empty line, the last one even without its line end', async () => {
    const records: string[] = []
    const log: string[] = []
    for await (const record of ndjsonRecords(
      source(['{"id":1}\n\n{"id"', ':2}\r\n{"id":3}'], log),
    )) {
      records.push(record)
    }
    expect(records).toEqual(['{"id":1}', '{"id":2}', '{"id":3}'])
    expect(log).toEqual(['done', 'closed'])
  })

  it('closes its source when the loop stops early', async () => {
    const log: string[] = []
    for await (const record of ndjsonRecords(source(['1\n2\n', '3\n'], log))) {
      if (record === '1') break
    }
    expect(log).toEqual(['closed'])
  })

  it('throws a RangeError at a line over the limit and closes its source, reading no further', async () => {
    const log: string[] = []
    const records: string[] = []
    const reading = (async () => {
      for await (const record of ndjsonRecords(source(['1\n', 'xx', 'xx', 'x\n', '2\n'], log), 4)) {
        records.push(record)
      }
    })()
    await expect(reading).rejects.toThrow(RangeError)
    expect(records).toEqual(['1'])
    expect(log).toEqual(['closed'])
  })
})
