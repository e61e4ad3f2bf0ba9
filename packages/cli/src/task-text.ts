// A task's name, tag and notes as the contract allows them (packages/contract/src/task.ts), checked
// before any request so that `tasklane add ""` is a usage error (exit status 2) rather than
// a request answered by a 400. The CLI depends on the client alone, not on the contract and its
// TypeBox, so the rule is written again here; test/task-text.unit.test.ts holds it to the
// contract's own pattern and lengths.

/** The characters that show nothing on their own: a text of only these (and spaces) is blank. */
const INVISIBLE =
  '\\u00AD\\u034F\\u115F\\u1160\\u180E\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2064\\u2066-\\u206F\\u3164\\uFEFF\\uFFA0'

/** The contract's pattern of a text of 1 to `max` code points: not blank, no U+0000, no lone surrogate. */
function textPattern(max: number): RegExp {
  return new RegExp(
    `^(?=[\\s\\S]*[^\\s${INVISIBLE}])(?:[^\\u0000\\uD800-\\uDFFF]|[\\uD800-\\uDBFF][\\uDC00-\\uDFFF]){1,${max}}$`,
  )
}

/** A text field of a task, by the contract's rule. */
export interface TextRule {
  /** How a message names it: `name`, `tag`. */
  readonly field: string
  /** True when the field's name is a plural (`notes`): "the notes are". */
  readonly plural?: boolean
  /** The most code points it may have. */
  readonly max: number
  readonly pattern: RegExp
}

export const TASK_NAME: TextRule = { field: 'name', max: 200, pattern: textPattern(200) }
export const TASK_TAG: TextRule = { field: 'tag', max: 64, pattern: textPattern(64) }
export const TASK_NOTES: TextRule = {
  field: 'notes',
  plural: true,
  max: 10_000,
  pattern: textPattern(10_000),
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/** What is wrong with `value` as `rule`'s field, as the end of a sentence; undefined when nothing. */
export function textProblem(rule: TextRule, value: string): string | undefined {
  if (rule.pattern.test(value)) return undefined
  if (value.includes('\u0000')) return 'must not contain the NUL character (U+0000)'
  if (LONE_SURROGATE.test(value)) return 'must not contain an unpaired surrogate'
  const length = [...value].length
  if (length > rule.max) {
    const [verb, pronoun] = rule.plural ? ['are', 'they'] : ['is', 'it']
    return `${verb} ${length} characters long, over the ${rule.max} ${pronoun} may have`
  }
  return 'must have at least one visible character'
}
