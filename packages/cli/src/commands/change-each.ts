import { type ChangeTaskOptions, isApiError } from '@tasklane/client'
import type { Context } from '../context.js'
import { describeError } from '../describe-error.js'
import { escapeControls } from '../format/terminal-text.js'
import { UsageError } from '../usage-error.js'

/**
 * Statuses that concern one task only (no such task, changed since --if-match, a value
 * refused): reported, and the other ids go on. Any other failure (401, the server
 * unreachable after the client's retries, Ctrl-C) would fail every id alike: it stops.
 */
const TASK_ERRORS = new Set([400, 404, 409, 412, 422])

/** What changing tasks one id at a time came to. */
export interface ChangeOutcome<T> {
  /** What each change that succeeded returned, in the order of the ids. */
  readonly results: readonly T[]
  /** How many the server refused, each reported on stderr as it happened. */
  readonly refused: number
  /** The failure that stopped the rest, thrown by `exitStatus` once the results are shown. */
  readonly fatal?: unknown
}

/** Which tasks to change, and how. */
export interface ChangeRequest {
  /** The command, for the usage error. */
  readonly command: string
  readonly ids: readonly number[]
  /** `--if-match`: only for one id, since a version belongs to one task. */
  readonly ifMatch: number | undefined
}

/**
 * Runs `change` for each id in turn (an id given twice, once), each call with its own
 * Idempotency-Key (the client's, so that its retries replay rather than change twice). A
 * refusal of one task goes to stderr with the server's message and the rest go on.
 */
export async function changeEach<T>(
  { command, ids, ifMatch }: ChangeRequest,
  context: Context,
  change: (id: number, options: ChangeTaskOptions) => Promise<T>,
): Promise<ChangeOutcome<T>> {
  const unique = [...new Set(ids)]
  if (ifMatch !== undefined && unique.length > 1) {
    throw new UsageError('--if-match takes a single <id>: a version is that of one task.', command)
  }
  const results: T[] = []
  let refused = 0
  for (const id of unique) {
    try {
      results.push(await change(id, { ifMatch, signal: context.signal }))
    } catch (error) {
      if (!isApiError(error) || !TASK_ERRORS.has(error.status)) {
        return { results, refused, fatal: error }
      }
      refused++
      context.stderr.write(`tasklane: ${escapeControls(describeError(error))}\n`)
    }
  }
  return { results, refused }
}

/** 0 when every change succeeded, 1 when the server refused one; throws what stopped them. */
export function exitStatus(outcome: ChangeOutcome<unknown>): number {
  if (outcome.fatal !== undefined) throw outcome.fatal
  return outcome.refused === 0 ? 0 : 1
}
