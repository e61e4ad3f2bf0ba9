import { isApiError, type Task, type TasklaneClient, type TaskPatch } from '@tasklane/client'
import { messageOf, needsToken } from './messages.js'
import type { Place, PlanningApi } from './planning-api.js'

/** How a change the page sent ended. */
export type Outcome =
  /** Done: the task as the server holds it now (undefined after a delete). */
  | { readonly kind: 'saved'; readonly task: Task | undefined }
  /** 412: someone else changed the task first; `current` is the task as it is now, if it could be read. */
  | { readonly kind: 'conflict'; readonly message: string; readonly current: Task | undefined }
  /** 404: the task was deleted meanwhile. */
  | { readonly kind: 'gone'; readonly message: string }
  /**
   * Another refusal with the server's message and status (a 400 naming the field), or no
   * answer at all (no status).
   */
  | { readonly kind: 'failed'; readonly message: string; readonly status: number | undefined }
  /** 401: the server wants an API token. */
  | { readonly kind: 'token'; readonly error: unknown }

/**
 * Sends a change of `task` (a patch, or its deletion) only if the server still holds the
 * version the page shows (`If-Match`), so that nobody's change is overwritten unseen. The
 * client retries a lost answer with the same Idempotency-Key, which the server replays.
 */
export async function send(
  client: TasklaneClient,
  task: Task,
  change: TaskPatch | 'delete',
): Promise<Outcome> {
  const ifMatch = task.version
  try {
    if (change === 'delete') {
      await client.deleteTask(task.id, { ifMatch })
      return { kind: 'saved', task: undefined }
    }
    return { kind: 'saved', task: await client.updateTask(task.id, change, { ifMatch }) }
  } catch (error) {
    return outcomeOf(client, task, error)
  }
}

/** Moves `task` in its list's manual order (POST /tasks/{id}/move), with If-Match as `send`. */
export async function sendMove(
  client: TasklaneClient,
  planning: PlanningApi,
  task: Task,
  place: Place,
): Promise<Outcome> {
  try {
    return { kind: 'saved', task: await planning.move(task, place) }
  } catch (error) {
    return outcomeOf(client, task, error)
  }
}

/** How a refused or unanswered change of `task` ended (a 412 reads the task as it is now). */
async function outcomeOf(client: TasklaneClient, task: Task, error: unknown): Promise<Outcome> {
  if (needsToken(error)) return { kind: 'token', error }
  if (isApiError(error) && error.status === 404) return { kind: 'gone', message: error.message }
  if (!isApiError(error) || error.status !== 412) {
    const status = isApiError(error) ? error.status : undefined
    return { kind: 'failed', message: messageOf(error), status }
  }
  // The 412 names the current version only: the row is to show the task itself.
  try {
    return { kind: 'conflict', message: error.message, current: await client.getTask(task.id) }
  } catch (reading) {
    if (isApiError(reading) && reading.status === 404)
      return { kind: 'gone', message: reading.message }
    return { kind: 'conflict', message: error.message, current: undefined }
  }
}
