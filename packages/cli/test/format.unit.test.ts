import type { Task } from '@tasklane/client'
import { describe, expect, it } from 'vitest'
import { formatEvent } from '../src/format/event-line.js'
import { toJson } from '../src/format/json.js'
import { formatTable } from '../src/format/table.js'
import { displayWidth, escapeControls, truncate } from '../src/format/terminal-text.js'
import { importKey, parseImportLine } from '../src/import/import-line.js'
import { jsonErrorOffset } from '../src/import/json-error.js'

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

describe('toJson', () => {
  it('writes DEL, C1 controls and bidirectional marks as \\u escapes, the same string to a reader', () => {
    const value = { name: 'a\u007f\u009b2J\u202eb\u001b 🚀' }
    const json = toJson(value)
    expect(json).toBe('{"name":"a\\u007f\\u009b2J\\u202eb\\u001b 🚀"}')
    expect(JSON.parse(json)).toEqual(value)
    expect(toJson([1], 2)).toBe('[\n  1\n]')
  })
})

/** A task as the server sends it, with these fields. */
function task(fields: Pick<Task, 'id' | 'name'> & Partial<Task>): Task {
  const at = '2026-11-25T09:30:00.000Z'
  return {
    listId: 1,
    status: 'open',
    priority: 0,
    position: 'a0',
    version: 1,
    createdAt: at,
    createdBy: 'local',
    updatedAt: at,
    updatedBy: 'local',
    ...fields,
  }
}

describe('formatTable', () => {
  const tasks = [
    task({
      id: 1,
      name: 'Write docs',
      tag: 'docs',
      status: 'done',
      priority: 3,
      due: '2026-12-01',
    }),
    task({ id: 12, name: 'Ship it' }),
  ]

  it('aligns the columns, ids to the right, a task without a tag, priority or due with empty cells', () => {
    expect(formatTable(tasks)).toBe(
      'ID  STATUS  PRIORITY  DUE         NAME        TAG\n' +
        ' 1  done    high      2026-12-01  Write docs  docs\n' +
        '12  open                          Ship it\n',
    )
  })

  it('names each priority, and shows a due moment as the server keeps it, offset and all', () => {
    const planned = [1, 2, 3].map((priority) =>
      task({ id: priority, name: 'x', priority, due: '2026-12-01T17:00:00+01:00' }),
    )
    expect(formatTable(planned)).toBe(
      'ID  STATUS  PRIORITY  DUE                        NAME  TAG\n' +
        ' 1  open    low       2026-12-01T17:00:00+01:00  x\n' +
        ' 2  open    medium    2026-12-01T17:00:00+01:00  x\n' +
        ' 3  open    high      2026-12-01T17:00:00+01:00  x\n',
    )
    // A priority the CLI has no word for, or a due that is no string, shows as it came, escaped.
    const odd = task({ id: 4, name: 'y', priority: 9, due: '\u001b[2J' })
    expect(formatTable([odd])).toContain(' 4  open    9         \\u001b[2J  y')
  })

  it('fits a terminal width by cutting names, then tags, never the status', () => {
    const long = [task({ id: 1, name: 'n'.repeat(100), tag: 't'.repeat(40), priority: 2 })]
    const lines = formatTable(long, 70).trimEnd().split('\n')
    for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(70)
    expect(lines[1]).toMatch(/^ 1 {2}open {4}medium {4} {3} {2}n+… {2}t+…$/)
    // Without a width nothing is cut.
    expect(formatTable(long)).toContain('n'.repeat(100))
  })

  it('escapes a status as it escapes names: a server may send anything', () => {
    const hostile = task({ id: 1, name: 'x', status: '\u001b[2J' as Task['status'] })
    expect(formatTable([hostile])).toBe(
      'ID  STATUS     PRIORITY  DUE  NAME  TAG\n 1  \\u001b[2J                 x\n',
    )
  })
})

describe('a task from a server older than the task lifecycle', () => {
  it('has an empty status cell, in the table and in a watch line', () => {
    const bare = { id: 3, name: 'Bare task' } as Task
    expect(formatTable([bare])).toBe(
      'ID  STATUS  PRIORITY  DUE  NAME       TAG\n 3                         Bare task\n',
    )
    expect(formatEvent({ type: 'created', seq: 3, task: bare })).toBe('created  3    Bare task\n')
  })
})

describe('formatEvent', () => {
  it('prints a change on one line: its type, the id, status, name and tag in brackets', () => {
    const changed = task({ id: 7, name: 'a\nb', tag: 'x' })
    expect(formatEvent({ type: 'created', seq: 9, task: changed })).toBe(
      'created  7  open  a\\nb  [x]\n',
    )
    const done = task({ id: 8, name: 'plain', status: 'done', version: 2 })
    expect(formatEvent({ type: 'updated', seq: 10, task: done })).toBe('updated  8  done  plain\n')
  })

  it('prints a deleted task by its id alone: that is all the feed says of it', () => {
    expect(formatEvent({ type: 'deleted', seq: 11, task: { id: 8, version: 2 } })).toBe(
      'deleted  8\n',
    )
  })
})

describe('an import line', () => {
  it('is a new task as is, or an exported task without its id', () => {
    expect(parseImportLine('{"name":"a","tag":"b"}')).toEqual({ body: { name: 'a', tag: 'b' } })
    expect(parseImportLine('{"id":3,"name":"a"}')).toEqual({ body: { name: 'a' } })
    const exported = {
      id: 3,
      listId: 2,
      name: 'a',
      notes: 'n',
      status: 'done',
      priority: 2,
      due: '2026-12-01',
      completedAt: 't',
      position: 'a0',
      version: 4,
      createdAt: 't',
      createdBy: 'alice',
      updatedAt: 't',
      updatedBy: 'bob',
    }
    // What the server sets goes; what a new task may have stays.
    expect(parseImportLine(JSON.stringify(exported))).toEqual({
      body: { listId: 2, name: 'a', notes: 'n', status: 'done', priority: 2, due: '2026-12-01' },
    })
    expect(parseImportLine('"name"')).toEqual({ error: 'is not a JSON object' })
    expect(parseImportLine('null')).toEqual({ error: 'is not a JSON object' })
  })

  it.each([
    ['{"name":}', "Unexpected token '}' at column 9"],
    ['{"name":"x",}', 'Expected double-quoted property name at column 13'],
    ['{"name":"x"} {}', 'Unexpected non-whitespace character after JSON at column 14'],
    ['{"name":"x"', "Expected ',' or '}' after property value at column 12"],
    ['{"name":tru}', "Unexpected token '}' at column 12"],
    ['{"name":"ab\\u00zz"}', 'Bad Unicode escape at column 16'],
    // Columns count characters: the rocket before the mistake is one.
    ['{"name":"🚀",,}', 'Expected double-quoted property name at column 13'],
    ['{"name":', 'Unexpected end of JSON input at column 9'],
  ])('that is not JSON says where and why: %s', (text, reason) => {
    expect(parseImportLine(text)).toEqual({ error: reason })
  })

  it('is JSON to the scanner that finds where a line stops being JSON whenever JSON.parse takes it', () => {
    for (const text of [
      '{}',
      ' {"a": [1, -2.5e+3, true, false, null, "\\u00e9\\n"]} ',
      '[]',
      '"x"',
      '0',
    ]) {
      expect(JSON.parse(text)).toBeDefined()
      expect(jsonErrorOffset(text)).toBeUndefined()
    }
  })

  it('that is not JSON quotes no more of itself than the character at fault', () => {
    // The line may be long: its text is not repeated in the reason.
    const long = `{"name":"${'x'.repeat(500)}"}}`
    expect(parseImportLine(long)).toEqual({
      error: 'Unexpected non-whitespace character after JSON at column 512',
    })
  })

  it('has a key of its number and text: the same line elsewhere has another', () => {
    const key = importKey(1, '{"name":"a"}')
    expect(key).toMatch(/^tasklane-import-[0-9a-f]{64}$/)
    expect(importKey(1, '{"name":"a"}')).toBe(key)
    expect(importKey(2, '{"name":"a"}')).not.toBe(key)
    expect(importKey(1, '{"name":"b"}')).not.toBe(key)
  })
})
