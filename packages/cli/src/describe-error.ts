import { isApiError, type TasklaneError } from '@tasklane/client'

/** The innermost cause's message: `connect ECONNREFUSED 127.0.0.1:3000`. */
function rootCause(error: unknown): string | undefined {
  let cause = (error as { cause?: unknown }).cause
  let message: string | undefined
  while (typeof cause === 'object' && cause !== null) {
    const { message: text, cause: next } = cause as { message?: unknown; cause?: unknown }
    if (typeof text === 'string' && text !== '') message = text
    cause = next
  }
  return message
}

/**
 * One line for stderr: for an API error the server's own message, the status, the request
 * and its X-Request-Id (`Task 7 does not exist. (HTTP 404 from GET http://…/tasks/7;
 * request id …)`), else what went wrong on the way and why.
 */
export function describeError(error: TasklaneError): string {
  if (isApiError(error)) {
    const requestId = error.requestId === undefined ? '' : `; request id ${error.requestId}`
    return `${error.message} (HTTP ${error.status} from ${error.method} ${error.url}${requestId})`
  }
  const cause = rootCause(error)
  return cause === undefined ? error.message : `${error.message} (${cause})`
}

/**
 * What to do about a create the server refused for want of a list (a 403 naming `listId`:
 * no list was given and the caller can edit none), in the CLI's words; else undefined.
 */
export function listHint(error: TasklaneError): string | undefined {
  if (!isApiError(error) || error.status !== 403 || error.method !== 'POST') return undefined
  if (!new URL(error.url).pathname.endsWith('/task') || !error.message.includes('"listId"')) {
    return undefined
  }
  return "Name a list you can edit with --list LIST, or make one with 'tasklane lists create NAME'."
}

/**
 * What to do about a 401, by where the token came from (`TokenSource` of context.ts);
 * undefined for any other error.
 */
export function authHint(error: TasklaneError, tokenSource: string): string | undefined {
  if (!isApiError(error) || error.status !== 401) return undefined
  if (tokenSource === 'env')
    return 'The token of TASKLANE_TOKEN was refused: set it to a valid one.'
  if (tokenSource === 'stored') {
    return "The token stored by 'tasklane login' was refused: run 'tasklane login' again."
  }
  return "The server asks for a token: run 'tasklane login', or set TASKLANE_TOKEN."
}
