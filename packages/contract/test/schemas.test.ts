import { Value } from '@sinclair/typebox/value'
import { describe, expect, it } from 'vitest'
import { ChangeTaskHeaders, NewTask, Task, TaskName, TaskPatch } from '../src/index.js'

const matches = (value: string) => new RegExp(TaskName.pattern as string).test(value)
const matchesUnicode = (value: string) => new RegExp(TaskName.pattern as string, 'u').test(value)

describe('TaskName pattern', () => {
  it.each([
    ['plain text', 'Write docs'],
    ['emoji (surrogate pairs)', '😀'.repeat(200)],
    ['CJK and RTL', '任务 مهمة'],
    ['newlines inside', 'a\nb'],
    ['a zero-width joiner inside an emoji sequence', '👩\u200D💻'],
    ['an RTL override before visible text', 'invoice\u202Efdp.exe'],
  ])('accepts %s with and without the u flag', (_label, value) => {
    expect(matches(value)).toBe(true)
    expect(matchesUnicode(value)).toBe(true)
  })

  it.each([
    ['empty', ''],
    ['only whitespace', ' \t\n'],
    ['only zero-width characters', '\u200B\u200C\u200D\u2060\uFEFF'],
    ['only bidi controls and spaces', '\u202E \u2066\u2069'],
    ['U+0000', 'a\u0000b'],
  ])('rejects %s with and without the u flag', (_label, value) => {
    expect(matches(value)).toBe(false)
    expect(matchesUnicode(value)).toBe(false)
  })
})

describe('NewTask', () => {
  it('rejects properties other than name and tag', () => {
    expect(Value.Check(NewTask, { name: 'a' })).toBe(true)
    expect(Value.Check(NewTask, { name: 'a', id: 1 })).toBe(false)
    expect(Value.Check(NewTask, { name: 'a', tag: null })).toBe(false)
  })
})

describe('NewTask status', () => {
  it('accepts open and done, and nothing else', () => {
    expect(Value.Check(NewTask, { name: 'a', status: 'open' })).toBe(true)
    expect(Value.Check(NewTask, { name: 'a', status: 'done' })).toBe(true)
    expect(Value.Check(NewTask, { name: 'a', status: 'closed' })).toBe(false)
    expect(Value.Check(NewTask, { name: 'a', status: null })).toBe(false)
  })
})

describe('Task', () => {
  const task = {
    id: 1,
    name: 'a',
    status: 'open',
    version: 1,
    createdAt: '2026-11-25T09:30:00.000Z',
    updatedAt: '2026-11-25T09:30:00.000Z',
  }
  it('carries status, version and both timestamps', () => {
    const pattern = new RegExp(Task.properties.createdAt.pattern as string)
    expect(pattern.test(task.createdAt)).toBe(true)
    expect(pattern.test('2026-11-25T09:30:00Z')).toBe(false)
    expect(pattern.test('2026-11-25T09:30:00.000+01:00')).toBe(false)
    expect(Task.required).toEqual([
      'id',
      'listId',
      'name',
      'status',
      'priority',
      'position',
      'version',
      'createdAt',
      'createdBy',
      'updatedAt',
      'updatedBy',
    ])
  })
})

describe('TaskPatch', () => {
  it.each([
    [{ name: 'b' }],
    [{ tag: 'x' }],
    [{ tag: null }],
    [{ status: 'done' }],
    [{ name: 'b', tag: null, status: 'open' }],
  ])('accepts %j', (patch) => {
    expect(Value.Check(TaskPatch, patch)).toBe(true)
  })

  it.each([
    ['an empty patch', {}],
    ['a null name', { name: null }],
    ['a null status', { status: null }],
    ['an unknown status', { status: 'closed' }],
    ['an id', { id: 2 }],
    ['a version', { version: 2 }],
    ['createdAt', { createdAt: '2026-11-25T09:30:00.000Z' }],
    ['an empty tag', { tag: '' }],
  ])('rejects %s', (_label, patch) => {
    expect(Value.Check(TaskPatch, patch)).toBe(false)
  })
})

describe('If-Match and If-None-Match', () => {
  const pattern = new RegExp(ChangeTaskHeaders.properties['if-match'].pattern as string)
  it.each(['"3"', '*', 'W/"3"', '"1", "2",W/"3"', ' "3" ', '"7",,"999"', '"3",', ', "3"'])(
    'accepts %s',
    (value) => {
      expect(pattern.test(value)).toBe(true)
    },
  )
  it.each(['garbage', '3', '"3', '*, "3"', ',', '"a"b"', ''])('rejects %j', (value) => {
    expect(pattern.test(value)).toBe(false)
  })
})
