import { TasklaneError } from './tasklane-error.js'

/**
 * Thrown when one line of a streamed response (a task of `exportTasks`, a line or the data
 * of one event of `watch`) is longer than MAX_LINE_LENGTH, 1,048,576 characters, far above
 * any task: the client stops reading, cancels the response and does not retry, so that a
 * broken server cannot make it buffer without bound. The message names the limit.
 */
export class ResponseTooLargeError extends TasklaneError {
  override name = 'ResponseTooLargeError'
}
