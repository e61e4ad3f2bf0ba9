// Creates while readers stream: how long a create waits while `--streams` clients download
// GET /tasks (no limit) over and over, then while `--feeds` clients read the change feed's
// backlog from `after=0` over and over, then while `--filtered-feeds` clients do the same
// with a view no task is in (`tag=` a tag nobody has: the whole backlog read, nothing
// sent), from a server with `--tasks` tasks. Prints one JSON line of figures a phase;
// asserts nothing (the suites assert behaviour).
//   pnpm --filter @tasklane/bench fair-streams -- --streams 4 --feeds 4 --filtered-feeds 4 --tasks 50000
//   pnpm --filter @tasklane/bench fair-streams -- --pg postgres://postgres@127.0.0.1:5432/postgres
import { mkdtempSync, rmSync } from 'node:fs'
import { Agent, request } from 'node:http'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { killAll, type ServerProcess, startServer } from './processes.js'
import { createScratchDatabase, seedPostgres, seedSqlite } from './seed.js'
import { percentile, round, sorted } from './stats.js'

const SERVER_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../apps/server')

const { values: args } = parseArgs({
  options: {
    tasks: { type: 'string', default: '100000' },
    streams: { type: 'string', default: '50' },
    feeds: { type: 'string', default: '0' },
    'filtered-feeds': { type: 'string', default: '0' },
    seconds: { type: 'string', default: '5' },
    pg: { type: 'string' },
    server: { type: 'string' },
  },
  args: process.argv.slice(2).filter((arg) => arg !== '--'),
})
const tasks = Number(args.tasks)
const seconds = Number(args.seconds)
const main = resolve(args.server ?? join(SERVER_DIR, 'dist/main.js'))

/** A reader: one full-list download, or one feed's backlog, read as fast as it arrives. */
type Reader = (url: string) => Promise<number>

/** One full-list download; resolves with its status. */
const download: Reader = (url) =>
  new Promise((resolvePromise) => {
    const req = request(`${url}/tasks`, { agent: false }, (response) => {
      response.on('data', () => {})
      response.on('end', () => resolvePromise(response.statusCode ?? 0))
      response.on('error', () => resolvePromise(0))
    })
    req.on('error', () => resolvePromise(0))
    req.end()
  })

/**
 * The change feed from `after=0` (with `query`) until its backlog is sent (the first `: seq`
 * comment, after an event when `events` are expected: the subscriber has every change up
 * to it), then it hangs up; resolves with its status.
 */
const feedReader =
  (query: string, expectEvents: boolean): Reader =>
  (url) =>
    new Promise((resolvePromise) => {
      const req = request(`${url}/tasks/events?after=0${query}`, { agent: false }, (response) => {
        const status = response.statusCode ?? 0
        if (status !== 200) {
          response.resume()
          response.on('end', () => resolvePromise(status))
          return
        }
        let events = 0
        let tail = ''
        response.setEncoding('utf8')
        response.on('data', (chunk: string) => {
          const text = tail + chunk
          events += text.split('\nid: ').length - 1
          if ((events > 0 || !expectEvents) && text.includes(': seq ')) {
            req.destroy()
            resolvePromise(status)
          }
          tail = text.slice(-16)
        })
        response.on('end', () => resolvePromise(status))
        response.on('error', () => resolvePromise(status))
      })
      req.on('error', () => resolvePromise(0))
      req.end()
    })

const createAgent = new Agent({ keepAlive: true, maxSockets: 1 })

/** One create; resolves with its status and milliseconds. */
function timedCreate(url: string, n: number): Promise<{ status: number; ms: number }> {
  const body = JSON.stringify({ name: `create ${n}` })
  return new Promise((resolvePromise, reject) => {
    const start = performance.now()
    const req = request(
      `${url}/task`,
      {
        method: 'POST',
        agent: createAgent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        response.on('data', () => {})
        response.on('end', () =>
          resolvePromise({ status: response.statusCode ?? 0, ms: performance.now() - start }),
        )
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

/** Creates one after another for `seconds` while `clients` readers read over and over. */
async function phase(server: ServerProcess, what: string, clients: number, read: Reader) {
  const until = performance.now() + seconds * 1000
  const reads = { completed: 0, refused: 0 }
  const readers = Array.from({ length: clients }, async () => {
    while (performance.now() < until) {
      if ((await read(server.url)) === 200) reads.completed++
      else reads.refused++
    }
  })
  const latencies: number[] = []
  const statuses: Record<number, number> = {}
  for (let n = 0; performance.now() < until; n++) {
    const { status, ms } = await timedCreate(server.url, n)
    statuses[status] = (statuses[status] ?? 0) + 1
    latencies.push(ms)
  }
  await Promise.all(readers)
  const ordered = sorted(latencies)
  console.log(
    JSON.stringify({
      backend: args.pg === undefined ? 'sqlite' : 'postgres',
      readers: `${clients} ${what}`,
      tasks,
      seconds,
      creates: latencies.length,
      createStatuses: statuses,
      createMs: {
        p50: round(percentile(ordered, 50)),
        p99: round(percentile(ordered, 99)),
        max: round(ordered.at(-1) ?? Number.NaN),
      },
      readsCompleted: reads.completed,
      readsRefused: reads.refused,
    }),
  )
}

const work = mkdtempSync(join(tmpdir(), 'tasklane-fair-'))
const scratch = args.pg === undefined ? undefined : await createScratchDatabase(args.pg)
try {
  const file = join(work, 'tasks.db')
  const server = await startServer({
    name: 'fair-streams',
    command: process.execPath,
    args: [main],
    cwd: work,
    env: {
      DATABASE_URL: scratch?.url ?? file,
      MAX_STREAMS: args.streams,
      LOG_LEVEL: 'warn',
    },
    readyPath: '/health/ready',
    logDir: work,
  })
  if (scratch === undefined) seedSqlite(file, tasks)
  else await seedPostgres(scratch.url, tasks)
  const streams = Number(args.streams)
  const feeds = Number(args.feeds)
  if (streams > 0) await phase(server, 'full listings', streams, download)
  if (feeds > 0) await phase(server, 'after=0 feeds', feeds, feedReader('', true))
  const filtered = Number(args['filtered-feeds'])
  if (filtered > 0) {
    const none = `&tag=${encodeURIComponent('nobody-has-this-tag')}`
    await phase(server, 'after=0 feeds of an empty view', filtered, feedReader(none, false))
  }
  await server.stop()
} finally {
  await killAll()
  await scratch?.drop()
  rmSync(work, { recursive: true, force: true })
}
