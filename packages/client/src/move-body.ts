import type { MoveTaskOptions } from './options.js'
import type { MoveTarget, MoveTask } from './types.js'

/**
 * The body of POST /tasks/{id}/move for a target and the call's `listId`. The target goes
 * as it is: one naming two places, or a string the API does not know, is the server's to
 * refuse with a 400 naming it, rather than the client's to guess at.
 */
export function moveBody(to: MoveTarget, call: MoveTaskOptions | undefined): MoveTask {
  const body: MoveTask = typeof to === 'string' ? { to } : { ...to }
  if (call?.listId !== undefined) body.listId = call.listId
  return body
}
