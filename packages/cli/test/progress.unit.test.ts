import { describe, expect, it } from 'vitest'
import type { Output } from '../src/context.js'
import { startProgress } from '../src/progress.js'

/** A terminal that keeps what is written to it. */
function terminal(): Output & { text: string } {
  return {
    isTTY: true,
    text: '',
    write(chunk: string) {
      this.text += chunk
      return true
    },
    once: () => undefined,
  }
}

describe('the progress line', () => {
  it('counts tasks with their rate and share, one task in the singular', () => {
    let now = 0
    const stderr = terminal()
    const progress = startProgress(
      stderr,
      'Imported',
      () => 1,
      () => now,
    )
    progress.tick()
    now = 1000
    progress.done()
    expect(stderr.text).toBe('\r\x1b[2KImported 1 task · 1/s · 100%\n')
  })

  it('writes nothing but notes when stderr is no terminal', () => {
    const stderr = { ...terminal(), isTTY: false }
    const progress = startProgress(stderr, 'Exported')
    progress.tick()
    progress.note('line 2: refused\n')
    progress.done()
    expect(stderr.text).toBe('line 2: refused\n')
  })
})
