import { describe, expect, it } from 'vitest'
import { formatLine, formatTable } from '../src/format/table.js'
import { displayWidth, escapeControls, truncate } from '../src/format/terminal-text.js'
import { importKey, parseImportLine } from '../src/import/import-line.js'

describe('text on a terminal', () => {
  it('escapes control characters, line breaks and bidirectional overrides', () => {
    expect(escapeControls('a\nb\tc\u001b[31m\u202eevil\u0000')).toBe(
      'a\\nb\\tc\\u001b[31m\\u202eevil\\u0000',
    )
    expect(escapeControls('Ship 🚀 任务 café')).toBe('Ship 🚀 任务 café')
  })

  it('counts two columns for CJK and emoji, none for combining marks', () => {
    expect(displayWidth('abc')).toBe(3)
    expect(displayWidth('任务')).toBe(4)
    expect(displayWidth('🚀')).toBe(2)
    expect(displayWidth('e\u0301')).toBe(1)
  })

  it('cuts text to a number of columns with …, never splitting a wide character', () => {
    expect(truncate('Write docs', 20)).toBe('Write docs')
    expect(truncate('Write docs', 6)).toBe('Write…')
    expect(truncate('任务任务', 4)).toBe('任…')
    expect(displayWidth(truncate('任务任务', 5))).toBeLessThanOrEqual(5)
  })
})

describe('formatTable', () => {
  const tasks = [
    { id: 1, name: 'Write docs', tag: 'docs' },
    { id: 12, name: 'Ship it' },
  ]

  it('aligns the columns, ids to the right, a task without a tag with an empty cell', () => {
    expect(formatTable(tasks)).toBe('ID  NAME        TAG\n 1  Write docs  docs\n12  Ship it\n')
  })

  it('fits a terminal width by cutting names, then tags', () => {
    const long = [{ id: 1, name: 'n'.repeat(100), tag: 't'.repeat(40) }]
    const lines = formatTable(long, 60).trimEnd().split('\n')
    for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(60)
    expect(lines[1]).toMatch(/^ 1 {2}n+… {2}t+…$/)
    // Without a width nothing is cut.
    expect(formatTable(long)).toContain('n'.repeat(100))
  })

  it('prints a watched task on one line, its tag in brackets', () => {
    expect(formatLine({ id: 7, name: 'a\nb', tag: 'x' })).toBe('7  a\\nb  [x]\n')
    expect(formatLine({ id: 8, name: 'plain' })).toBe('8  plain\n')
  })
})

describe('an import line', () => {
  it('is a new task as is, or an exported task without its id', () => {
    expect(parseImportLine('{"name":"a","tag":"b"}')).toEqual({ body: { name: 'a', tag: 'b' } })
    expect(parseImportLine('{"id":3,"name":"a"}')).toEqual({ body: { name: 'a' } })
    expect(parseImportLine('{"name":')).toEqual({ error: 'is not valid JSON' })
    expect(parseImportLine('"name"')).toEqual({ error: 'is not a JSON object' })
    expect(parseImportLine('null')).toEqual({ error: 'is not a JSON object' })
  })

  it('has a key of its number and text: the same line elsewhere has another', () => {
    const key = importKey(1, '{"name":"a"}')
    expect(key).toMatch(/^tasklane-import-[0-9a-f]{64}$/)
    expect(importKey(1, '{"name":"a"}')).toBe(key)
    expect(importKey(2, '{"name":"a"}')).not.toBe(key)
    expect(importKey(1, '{"name":"b"}')).not.toBe(key)
  })
})
