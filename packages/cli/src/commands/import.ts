import { setMaxListeners } from 'node:events'
import { open } from 'node:fs/promises'
import { createInterface } from 'node:readline'
import { createClient, isApiError, type NewTask } from '@tasklane/client'
import { integerArgument } from '../command-line.js'
import { type Context, interruptedStatus } from '../context.js'
import { createHttpFetch } from '../import/http-fetch.js'
import { importKey, parseImportLine } from '../import/import-line.js'
import { createLimiter } from '../import/limiter.js'
import { formatSummary, type ImportSummary } from '../import/summary.js'
import { startProgress } from '../progress.js'
import { UsageError } from '../usage-error.js'

/** Creates in flight at once by default: enough to keep the server's group commit full. */
const CONCURRENCY = 48
const MAX_CONCURRENCY = 256
/** Statuses that mean the line itself is wrong; any other failure stops the import. */
const LINE_ERRORS = new Set([400, 413, 422])
/** Retries of one line after 429/503 (honouring Retry-After), a dropped connection or a 5xx. */
const RETRY = { maxRetries: 8, maxDelayMs: 4_000 }

/**
 * `tasklane import <file.ndjson> [--concurrency N] [--json]`: a task for each line, up to 48
 * at a time (so ids follow the order of the commits, not quite the file's), each
 * with an Idempotency-Key derived from the line so that running it again creates no
 * duplicate. Bad lines are reported on stderr with their number; the rest go on.
 */
export async function importTasks(
  context: Context,
  [file = '']: readonly string[],
  options: { concurrency?: string; json?: boolean },
): Promise<number> {
  const concurrency =
    options.concurrency === undefined
      ? CONCURRENCY
      : integerArgument(options.concurrency, '--concurrency', 'import', 1, MAX_CONCURRENCY)
  const cannotRead = (why: string) => new UsageError(`Cannot read ${file}: ${why}`, 'import')
  const handle = await open(file).catch((error: NodeJS.ErrnoException) => {
    throw cannotRead(error.code ?? error.message)
  })
  const stats = await handle.stat()
  if (!stats.isFile()) {
    await handle.close()
    throw cannotRead('not a file')
  }
  const size = stats.size
  const summary: ImportSummary = { lines: 0, created: 0, replayed: 0, failed: 0 }
  // Its own client: one that counts the creates the server replays, and retries longer.
  const baseFetch = context.clientOptions.fetch ?? createHttpFetch(concurrency)
  const client = createClient({
    ...context.clientOptions,
    retry: RETRY,
    fetch: async (input, init) => {
      const response = await baseFetch(input, init)
      if (response.headers.get('idempotent-replayed') === 'true') summary.replayed++
      return response
    },
  })
  let bytes = 0
  const progress = startProgress(context.stderr, 'Imported', () => (size === 0 ? 1 : bytes / size))
  let fatal: unknown
  // Once one create fails for good, the others in flight are stopped: the server is gone
  // or refuses every line alike (a 401, say), and a second run resumes.
  const stop = new AbortController()
  setMaxListeners(concurrency * 2, stop.signal)
  const limiter = createLimiter(concurrency)

  const send = async (number: number, text: string) => {
    const line = parseImportLine(text)
    if ('error' in line) {
      summary.failed++
      progress.note(`line ${number}: ${line.error}\n`)
      return
    }
    try {
      // As NewTask: the server, not the CLI, checks it and says what is wrong.
      await client.createTask(line.body as unknown as NewTask, {
        idempotencyKey: importKey(number, text),
        signal: stop.signal,
      })
      summary.created++
      progress.tick()
    } catch (error) {
      if (isApiError(error) && LINE_ERRORS.has(error.status)) {
        summary.failed++
        progress.note(`line ${number}: ${error.message}\n`)
      } else if (fatal === undefined) {
        fatal = error
        stop.abort()
      }
    }
  }

  const input = handle.createReadStream()
  const reader = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })
  try {
    for await (const raw of reader) {
      summary.lines++
      bytes += Buffer.byteLength(raw) + 1
      // A byte order mark before the first line is not part of it.
      const text = summary.lines === 1 ? raw.replace(/^\uFEFF/, '') : raw
      if (text.trim() === '') continue
      const number = summary.lines
      await limiter.start(() => send(number, text))
      if (fatal !== undefined || context.signal.aborted) break
    }
  } finally {
    reader.close()
    input.destroy()
    await limiter.drain()
    progress.done()
  }
  // Every create the server replayed was counted as created too.
  summary.created -= summary.replayed
  context.stdout.write(formatSummary(summary, options.json === true))
  if (fatal !== undefined) throw fatal
  if (context.signal.aborted) {
    context.stderr.write('Interrupted: run the same import again to finish it.\n')
    return interruptedStatus(context.signal)
  }
  return summary.failed === 0 ? 0 : 1
}
