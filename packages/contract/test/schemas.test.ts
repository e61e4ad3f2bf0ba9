import { Value } from '@sinclair/typebox/value'
import { describe, expect, it } from 'vitest'
import { NewTask, TaskName } from '../src/index.js'

const matches = (value: string) => new RegExp(TaskName.pattern as string).test(value)
const matchesUnicode = (value: string) => new RegExp(TaskName.pattern as string, 'u').test(value)

describe('TaskName pattern', () => {
  it.each([
    ['plain text', 'Write docs'],
    ['emoji (surrogate pairs)', '😀'.repeat(200)],
    ['CJK and RTL', '任务 مهمة'],
    ['newlines inside', 'a\nb'],
  ])('accepts %s with and without the u flag', (_label, value) => {
    expect(matches(value)).toBe(true)
    expect(matchesUnicode(value)).toBe(true)
  })

  it.each([
    ['empty', ''],
    ['only whitespace', ' \t\n'],
    ['U+0000', 'a\u0000b'],
    ['a lone high surrogate', 'a\uD800'],
    ['a lone low surrogate', '\uDC00a'],
    ['201 code points', 'x'.repeat(201)],
    ['201 emoji', '😀'.repeat(201)],
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
