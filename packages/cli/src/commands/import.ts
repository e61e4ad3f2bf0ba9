import { setMaxListeners } from 'node:events'
import { createClient, isApiError, type NewTask } from '@tasklane/client'
import { defineCommand } from '../command-line/define-command.js'
import { interruptedStatus } from '../context.js'
import { escapeControls } from '../format/terminal-text.js'
import { createHttpFetch } from '../import/http-fetch.js'
import { importKey, parseImportLine, tooLong } from '../import/import-line.js'
import { createLimiter } from '../import/limiter.js'
import { openInput } from '../import/open-input.js'
import { readLines } from '../import/read-lines.js'
import { formatSummary, type ImportSummary } from '../import/summary.js'
import { startProgress } from '../progress.js'

/** Creates in flight at once by default: enough to keep the server's group commit full. */
const CONCURRENCY = 48
/** Statuses that mean the line itself is wrong; any other failure stops the import. */
const LINE_ERRORS = new Set([400, 413, 422])
/**
 * The longest line sent: the server refuses a body over 64 KiB (413), and a task, even with
 * its every character escaped, is a few KiB. A longer line is refused without being held.
 */
const MAX_LINE_BYTES = 64 * 1024
/** Retries of one line after 429/503 (honouring Retry-After), a dropped connection or a 5xx. */
const RETRY = { maxRetries: 8, maxDelayMs: 4_000 }

/**
 * `tasklane import <file.ndjson | -> [--concurrency N] [--json]`: a task for each line, up
 * to 48 at a time (so ids follow the order of the commits, not quite the file's), each
 * with an Idempotency-Key derived from the line so that running it again creates no
 * duplicate. Bad lines are reported on stderr with their number; the rest go on.
 */
export const importCommand = defineCommand({
  name: 'import',
  summary: 'Create a task for each line of an NDJSON file.',
  details:
    'Each line is a JSON object: a new task {"name": ..., "tag": ..., "status": ...} (tag\n' +
    'and status optional), or a task as `tasklane export` prints it, whose "id",\n' +
    '"version", "createdAt" and "updatedAt" are left out (the server gives new ones).\n' +
    'For - it reads standard input:\n' +
    '`tasklane export | tasklane import -`. Blank lines are skipped; a line the server\n' +
    'refuses is reported with its number and the rest go on. Safe to run again: each\n' +
    'line carries an Idempotency-Key made from its number and its text (from a file or\n' +
    'standard input alike), so lines already imported are not created twice (the server\n' +
    'keeps keys for at least 24 hours). Prints a summary; progress goes to stderr on a\n' +
    'terminal.',
  args: [{ name: 'file', type: 'string', label: '<file.ndjson>' }],
  flags: {
    concurrency: {
      type: 'integer',
      value: 'N',
      min: 1,
      max: 256,
      help: `Creates in flight at once, 1 to 256 (default ${CONCURRENCY}); 1 keeps the file's order.`,
    },
    json: { type: 'boolean', help: 'Print the summary as one JSON object.' },
  },
  async run({ file, concurrency = CONCURRENCY, json }, context) {
    const input = await openInput(file, context.stdin)
    const summary: ImportSummary = { lines: 0, created: 0, replayed: 0, failed: 0 }
    // The lines whose create is in flight, by Idempotency-Key: what the server said to each
    // attempt. A replay answering the first attempt is a task an earlier run created; one
    // answering a retry is this run's own, whose first answer was lost on the way.
    const attempts = new Map<string, { sent: number; replayedFirst: boolean }>()
    // Its own client: one that watches the attempts, and retries longer.
    const baseFetch = context.clientOptions.fetch ?? createHttpFetch(concurrency)
    const client = createClient({
      ...context.clientOptions,
      retry: RETRY,
      fetch: async (url, init) => {
        const key = (init?.headers as Record<string, string> | undefined)?.['idempotency-key']
        const line = key === undefined ? undefined : attempts.get(key)
        const first = line !== undefined && ++line.sent === 1
        const response = await baseFetch(url, init)
        if (first && response.headers.get('idempotent-replayed') === 'true') {
          line.replayedFirst = true
        }
        return response
      },
    })
    let bytes = 0
    const { size } = input
    const share = size === undefined ? undefined : () => (size === 0 ? 1 : bytes / size)
    const progress = startProgress(context.stderr, 'Imported', share)
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
        // The parser's reason may quote the character at fault: a control, say.
        progress.note(`line ${number}: ${escapeControls(line.error)}\n`)
        return
      }
      const idempotencyKey = importKey(number, text)
      const sent = { sent: 0, replayedFirst: false }
      attempts.set(idempotencyKey, sent)
      try {
        // As NewTask: the server, not the CLI, checks it and says what is wrong.
        await client.createTask(line.body as unknown as NewTask, {
          idempotencyKey,
          signal: stop.signal,
        })
        if (sent.replayedFirst) summary.replayed++
        else summary.created++
        progress.tick()
      } catch (error) {
        if (isApiError(error) && LINE_ERRORS.has(error.status)) {
          summary.failed++
          // The server's words, which could hold escape sequences meant for a terminal.
          progress.note(`line ${number}: ${escapeControls(error.message)}\n`)
        } else if (fatal === undefined) {
          fatal = error
          stop.abort()
        }
      } finally {
        attempts.delete(idempotencyKey)
      }
    }

    const lines = readLines(input.chunks, MAX_LINE_BYTES)
    try {
      for await (const { number, text: raw, length, bytes: read } of lines) {
        summary.lines = number
        bytes += read
        if (raw === undefined) {
          summary.failed++
          progress.note(`line ${number}: ${tooLong(length, MAX_LINE_BYTES)}\n`)
          continue
        }
        // A byte order mark before the first line is not part of it.
        const text = number === 1 ? raw.replace(/^\uFEFF/, '') : raw
        if (text.trim() === '') continue
        await limiter.start(() => send(number, text))
        if (fatal !== undefined || context.signal.aborted) break
      }
    } finally {
      input.close()
      try {
        await limiter.drain()
      } finally {
        progress.done()
      }
    }
    context.stdout.write(formatSummary(summary, json === true))
    if (fatal !== undefined) throw fatal
    if (context.signal.aborted) {
      context.stderr.write('Interrupted: run the same import again to finish it.\n')
      return interruptedStatus(context.signal)
    }
    return summary.failed === 0 ? 0 : 1
  },
})
