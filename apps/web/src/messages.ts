import { isApiError, isTasklaneError } from '@tasklane/client'

/** True when the server asks for an API token (or refused the one given). */
export const needsToken = (error: unknown): boolean => isApiError(error) && error.status === 401

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
