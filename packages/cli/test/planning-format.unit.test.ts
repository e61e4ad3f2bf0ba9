import type { HistoryEntry } from '@tasklane/client'
import { describe, expect, it } from 'vitest'
import { priority, priorityValue } from '../src/commands/planning-flags.js'
import { changesText, formatHistory } from '../src/format/history-table.js'
import { displayWidth } from '../src/format/terminal-text.js'
import { PRIORITY_WORDS } from '../src/priority.js'

describe('--priority', () => {
  it("takes each priority's word and its number, to the number the API takes", () => {
    for (const [number, word] of PRIORITY_WORDS.entries()) {
      expect(priorityValue(word as (typeof priority.choices)[number])).toBe(number)
      expect(priorityValue(String(number) as (typeof priority.choices)[number])).toBe(number)
    }
    expect(priority.choices).toHaveLength(8)
    expect(priorityValue(undefined)).toBeUndefined()
  })
})

describe('a history table', () => {
  const entries: HistoryEntry[] = [
    {
      seq: 12,
      at: '2026-11-25T09:31:02.114Z',
      actor: 'bob',
      type: 'updated',
      changes: {
        status: { from: 'open', to: 'done' },
        completedAt: { from: null, to: '2026-11-25T09:31:02.114Z' },
      },
    },
    { seq: 9, at: '2026-11-25T09:30:00.000Z', actor: 'alice', type: 'moved', changes: {} },
  ]

  it('prints each change newest first: seq, time, actor, type and each field from and to', () => {
    expect(formatHistory(entries)).toBe(
      'SEQ  AT                        ACTOR  TYPE     CHANGES\n' +
        ' 12  2026-11-25T09:31:02.114Z  bob    updated  status: "open" → "done", completedAt: none → "2026-11-25T09:31:02.114Z"\n' +
        '  9  2026-11-25T09:30:00.000Z  alice  moved\n',
    )
  })

  it('cuts the changes to fit a terminal, and escapes whatever a server sends', () => {
    const lines = formatHistory(entries, 70).trimEnd().split('\n')
    for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(70)
    expect(lines[1]).toMatch(/ updated {2}status: "open" → .*…$/)
    const hostile = {
      ...entries[1],
      actor: '\u001b[2J',
      changes: { name: { from: 'a\u202eb', to: 'c' } },
    }
    expect(formatHistory([hostile as HistoryEntry])).toContain(
      '\\u001b[2J  moved  name: "a\\u202eb" → "c"',
    )
    expect(changesText('odd' as unknown as HistoryEntry['changes'])).toBe('odd')
  })
})
