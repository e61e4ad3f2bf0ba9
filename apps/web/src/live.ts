import type { Task, TasklaneClient } from '@tasklane/client'

/** What to follow: tasks above `after`, with this tag if one is given. */
export interface FollowOptions {
  readonly after: number
  readonly tag: string | undefined
  readonly onTask: (task: Task) => void
  /** The feed failed for good (the client reconnects by itself after passing failures). */
  readonly onError: (error: unknown) => void
}

/**
 * Follows the change feed (`client.watch`) until the returned controller aborts: every new
 * task once, in id order. Aborting is the normal end and reports nothing.
 */
export function follow(client: TasklaneClient, options: FollowOptions): AbortController {
  const stop = new AbortController()
  const { after, tag, onTask, onError } = options
  void (async () => {
    try {
      for await (const task of client.watch({ after, tag, signal: stop.signal })) onTask(task)
    } catch (error) {
      if (!stop.signal.aborted) onError(error)
    }
  })()
  return stop
}
