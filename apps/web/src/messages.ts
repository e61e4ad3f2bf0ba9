import { isApiError, isTasklaneError } from '@tasklane/client'

/** True when the server asks for an API token (or refused the one given). */
export const needsToken = (error: unknown): boolean => isApiError(error) && error.status === 401

/**
 * Why the page asks for a token, in words: none was given yet in this tab (`given` false),
 * or the one given was refused (wrong, expired or revoked).
 */
export function tokenWords(error: unknown, given: boolean): string {
  if (!given) return 'This server asks for a token: enter yours to see the tasks.'
  const expired = isApiError(error) && error.message.startsWith('The access token has expired')
  return `That token was not accepted: ${expired ? 'it has expired' : 'it is wrong, expired or revoked'}. Enter another.`
}

/** Said when a shortcut asks for a change of a task the caller may only read. */
export const READ_ONLY_WORDS = 'You can read this task but not change it.'

/** What to tell the user: the server's own message for an API error, else what went wrong. */
export function messageOf(error: unknown): string {
  if (isApiError(error)) return error.message
  if (isTasklaneError(error)) return `The server could not be reached (${error.name}). Try again.`
  return 'Something went wrong. Reload the page and try again.'
}

/** Why the live list is not connected, for the line that says it is retrying. */
export function connectionProblem(error: unknown): string {
  const why = isApiError(error) ? error.message : 'The server cannot be reached.'
  return `Live updates paused: ${why} Retrying…`
}

/** The fields of a task that a person types or picks. */
export type TextField = 'name' | 'tag' | 'notes' | 'due' | 'priority'

/** A refusal of what was typed, in words, and the field it is about (none: the form's). */
export interface Refusal {
  readonly field: TextField | undefined
  readonly text: string
}

/**
 * What the server's validation message (`Field "name" must be at least 1 character long.`)
 * means, said as a person would (`Give the task a name.`), with the field it names. A
 * message it does not know is shown as the server wrote it, beside the field it names if
 * it names one: nothing the server says is lost. `typed` counts what was typed, for a
 * length.
 */
export function refusalOf(message: string, typed: Partial<Record<TextField, string>>): Refusal {
  const named = /^Field "(name|tag|notes|due|priority)" (.*)$/.exec(message)
  if (named === null) return { field: undefined, text: message }
  const field = named[1] as TextField
  const rule = named[2] as string
  // The due and the priority are picked, not typed: the server's words, beside the field.
  if (field === 'due' || field === 'priority') return { field, text: message }
  const what = field === 'name' ? 'The name' : field === 'tag' ? 'The tag' : 'The notes'
  if (/^(is required|must be at least 1 character|must contain at least one)/.test(rule)) {
    const text =
      field === 'name'
        ? 'Give the task a name.'
        : `Give the ${field} a letter or another visible character, or leave ${field === 'tag' ? 'it' : 'them'} empty.`
    return { field, text }
  }
  const longest = /^must be at most (\d+) characters long\.$/.exec(rule)?.[1]
  if (longest !== undefined) {
    const length = [...(typed[field] ?? '')].length
    const has = length > Number(longest) ? `: this one has ${length}` : ''
    return { field, text: `${what} can have at most ${longest} characters${has}.` }
  }
  if (rule.startsWith('must not contain the NUL character')) {
    return { field, text: `${what} holds a NUL character (U+0000), which cannot be stored.` }
  }
  if (rule.startsWith('must not contain an unpaired surrogate')) {
    return { field, text: `${what} holds a broken character (half of an emoji, say): retype it.` }
  }
  return { field, text: message }
}
