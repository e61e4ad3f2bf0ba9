import { describe, expect, it } from 'vitest'
import { type InputLine, readLines } from '../src/import/read-lines.js'

/** The chunks of `text`, `size` bytes each, all in one buffer filled again for each (as a file is read). */
async function* chunksOf(text: string, size: number): AsyncGenerator<Buffer> {
  const bytes = Buffer.from(text)
  const reused = Buffer.alloc(size)
  for (let at = 0; at < bytes.length; at += size) {
    const length = bytes.copy(reused, 0, at, at + size)
    yield reused.subarray(0, length)
  }
}

async function linesOf(text: string, size: number, maxBytes = 64): Promise<InputLine[]> {
  const lines: InputLine[] = []
  for await (const line of readLines(chunksOf(text, size), maxBytes)) lines.push(line)
  return lines
}

describe('the lines of an import', () => {
  it('splits at \\n, drops the \\r of \\r\\n, and keeps a last line without a line break', async () => {
    expect(await linesOf('a\r\n\nbé\nlast', 3)).toEqual([
      { number: 1, text: 'a', length: 1, bytes: 3 },
      { number: 2, text: '', length: 0, bytes: 1 },
      { number: 3, text: 'bé', length: 3, bytes: 4 },
      { number: 4, text: 'last', length: 4, bytes: 4 },
    ])
  })

  it('reads a character split between two chunks whole, though the chunk is filled again', async () => {
    const text = '🚀🚀🚀\n任务\n'
    for (const size of [1, 2, 3, 5, 7]) {
      expect((await linesOf(text, size)).map((line) => line.text)).toEqual(['🚀🚀🚀', '任务'])
    }
  })

  it('keeps a line of exactly the cap, and gives a longer one only its length', async () => {
    const lines = await linesOf(`${'a'.repeat(8)}\r\n${'b'.repeat(9)}\n${'c'.repeat(100)}\nd`, 4, 8)
    expect(lines).toEqual([
      { number: 1, text: 'a'.repeat(8), length: 8, bytes: 10 },
      { number: 2, text: undefined, length: 9, bytes: 10 },
      { number: 3, text: undefined, length: 100, bytes: 101 },
      { number: 4, text: 'd', length: 1, bytes: 1 },
    ])
  })
})
