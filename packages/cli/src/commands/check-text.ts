import { type TextRule, textProblem } from '../task-text.js'
import { UsageError } from '../usage-error.js'

/**
 * Refuses, as a usage error of `command`, a name or tag that the server would refuse: the
 * same rule, checked before any request.
 */
export function checkText(rule: TextRule, value: string | undefined, command: string): void {
  if (value === undefined) return
  const problem = textProblem(rule, value)
  if (problem === undefined) return
  // A blank value is quoted, so that the spaces it holds can be seen.
  const quoted = problem.startsWith('must have') ? `, got '${value}'` : ''
  throw new UsageError(`The ${rule.field} ${problem}${quoted}.`, command)
}
