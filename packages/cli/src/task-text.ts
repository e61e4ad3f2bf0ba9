// A task's name and tag as the contract allows them (packages/contract/src/task.ts), checked
// before any request so that `tasklane add ""` is a usage error (exit status 2) rather than
// a request answered by a 400. The CLI depends on the client alone, not on the contract and its
// TypeBox, so the rule is written again here; test/task-text.unit.test.ts holds it to the
// contract's own pattern and lengths.

/** Whitespace as ECMAScript's `\s` has it, spelled out as the contract does. */
const WHITESPACE = '\t\n\v\f\r \u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000\uFEFF'

/** The characters that show nothing on their own: a text of only these (and spaces) is blank. */
const INVISIBLE =
  '\u00AD\u034F\u115F\u1160\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\u3164\uFEFF\uFFA0'

/**
 * The contract's pattern of a text field (text-pattern.ts): a visible character, no U+0000.
 * Its length in code points and unpaired surrogates are checked beside it, as the server does.
 */
export const TEXT_PATTERN = `^[${WHITESPACE}${INVISIBLE}]*[^${WHITESPACE}${INVISIBLE}\u0000][^\u0000]*$`

/** A text field of a task, by the contract's rule. */
export interface TextRule {
  /** How a message names it: `name`, `tag`. */
  readonly field: string
  /** The most code points it may have. */
  readonly max: number
}

export const TASK_NAME: TextRule = { field: 'name', max: 200 }
export const TASK_TAG: TextRule = { field: 'tag', max: 64 }

const TEXT = new RegExp(TEXT_PATTERN, 'u')

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/** What is wrong with `value` as `rule`'s field, as the end of a sentence; undefined when nothing. */
export function textProblem(rule: TextRule, value: string): string | undefined {
  if (value.includes('\u0000')) return 'must not contain the NUL character (U+0000)'
  if (LONE_SURROGATE.test(value)) return 'must not contain an unpaired surrogate'
  const length = [...value].length
  if (length > rule.max) return `is ${length} characters long, over the ${rule.max} it may have`
  if (length === 0 || !TEXT.test(value)) return 'must have at least one visible character'
  return undefined
}
