import { TaskName, TaskNotes, TaskTag } from '@tasklane/contract'
import { describe, expect, it } from 'vitest'
import { TASK_NAME, TASK_NOTES, TASK_TAG, textProblem } from '../src/task-text.js'

describe("the CLI's rules for a task's name and tag", () => {
  it('are the contract’s: the same lengths, and the same texts taken and refused', () => {
    const rules = [
      [TASK_NAME, TaskName],
      [TASK_TAG, TaskTag],
      [TASK_NOTES, TaskNotes],
    ] as const
    const samples = [
      'a',
      ' Ship it ',
      '🚀',
      '任务',
      'a\nb',
      '',
      ' \t\n',
      '\u200b\u202e',
      'a\u0000b',
    ]
    for (const [rule, schema] of rules) {
      expect(rule.max).toBe(schema.maxLength)
      // The contract's pattern leaves lengths to maxLength (code points) and unpaired
      // surrogates to the server: both are the CLI's one rule.
      const contract = new RegExp(schema.pattern ?? '')
      for (const text of samples) {
        expect([rule.field, text, textProblem(rule, text) === undefined]).toEqual([
          rule.field,
          text,
          contract.test(text),
        ])
      }
    }
  })

  it('take notes of 10,000 characters with newlines, and say what is wrong with others', () => {
    expect(textProblem(TASK_NOTES, `${'n'.repeat(9_998)}\n🚀`)).toBeUndefined()
    expect(textProblem(TASK_NOTES, 'n'.repeat(10_001))).toBe(
      'are 10001 characters long, over the 10000 they may have',
    )
    expect(textProblem(TASK_NOTES, '\n\t')).toBe('must have at least one visible character')
  })

  it.each([
    ['', 'must have at least one visible character'],
    [' \t\n', 'must have at least one visible character'],
    ['\u200b\u202e', 'must have at least one visible character'],
    ['a\u0000b', 'must not contain the NUL character (U+0000)'],
    ['a\ud800b', 'must not contain an unpaired surrogate'],
    ['x'.repeat(201), 'is 201 characters long, over the 200 it may have'],
  ])('refuse the name %j: it %s', (name, problem) => {
    expect(textProblem(TASK_NAME, name)).toBe(problem)
  })

  it('take 200 characters of a name, counted as characters, not UTF-16 units', () => {
    expect(textProblem(TASK_NAME, '🚀'.repeat(200))).toBeUndefined()
    expect(textProblem(TASK_NAME, ' Ship it ')).toBeUndefined()
    expect(textProblem(TASK_NAME, '🚀'.repeat(201))).toBe(
      'is 201 characters long, over the 200 it may have',
    )
    expect(textProblem(TASK_TAG, 'x'.repeat(64))).toBeUndefined()
    expect(textProblem(TASK_TAG, 'x'.repeat(65))).toBe(
      'is 65 characters long, over the 64 it may have',
    )
  })
})
