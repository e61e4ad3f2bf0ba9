import { TaskName, TaskTag } from '@tasklane/contract'
import { describe, expect, it } from 'vitest'
import { TASK_NAME, TASK_TAG, TEXT_PATTERN, textProblem } from '../src/task-text.js'

describe("the CLI's rules for a task's name and tag", () => {
  it('are the contract’s: the same pattern and the same length in characters', () => {
    expect(TEXT_PATTERN).toBe(TaskName.pattern)
    expect(TEXT_PATTERN).toBe(TaskTag.pattern)
    expect(TASK_NAME.max).toBe(TaskName.maxLength)
    expect(TASK_TAG.max).toBe(TaskTag.maxLength)
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
