import { abortError } from './errors/abort-error.js'
import { ndjsonRecords } from './ndjson.js'
import type { ExportTasksOptions } from './options.js'
import { LIST_PATH } from './paths.js'
import { type RetryOptions, retryDelay } from './retry.js'
import { listTasksQuery } from './task-query.js'
import type { Transport } from './transport.js'
import type { Task } from './types.js'
import { sleep } from './utils/sleep.js'

/**
 * Every matching task, streamed as NDJSON in one response; a download that breaks (or a
 * line that is not JSON) is opened again after the last task yielded, with backoff.
 */
export async function* exportTasks(
  transport: Transport,
  call: ExportTasksOptions = {},
): AsyncGenerator<Task, void, undefined> {
  const cursor = call.order === 'desc' ? 'before' : 'after'
  let position = call[cursor]
  let settings: Required<RetryOptions> | undefined
  for (let retries = 0; ; retries++) {
    try {
      // Always in id order, even for a caller that names a sort: it resumes after an id.
      const query = { ...listTasksQuery(undefined, call), sort: undefined, [cursor]: position }
      const url = transport.url(LIST_PATH, query)
      const records = transport.stream(
        { method: 'GET', path: LIST_PATH, query, accept: 'application/x-ndjson', options: call },
        ndjsonRecords,
      )
      for await (const record of records) {
        const task = transport.record<Task>(record, 'Task', url)
        position = task.id
        // Consecutive failures count: a download that moves on may fail again later.
        retries = 0
        yield task
      }
      return
    } catch (error) {
      settings ??= transport.retrySettings(call.retry)
      const delay = retryDelay(error, { retries, settings, repeatable: true })
      if (delay === undefined) throw error
      const url = transport.url(LIST_PATH)
      await sleep(delay, call.signal, () => abortError('GET', url, call.signal))
    }
  }
}
