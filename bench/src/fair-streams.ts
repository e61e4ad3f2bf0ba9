// Creates while full lists stream: how long a create waits while `--streams` clients
// download GET /tasks (no limit) over and over from a server with `--tasks` tasks.
// Prints one JSON line of figures; asserts nothing (the suites assert behaviour).
//   pnpm --filter @tasklane/bench fair-streams -- --streams 50 --seconds 5
import { mkdtempSync, rmSync } from 'node:fs'
import { Agent, request } from 'node:http'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { killAll, startServer } from './processes.js'
import { seedSqlite } from './seed.js'
import { percentile, round, sorted } from './stats.js'

const SERVER_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../apps/server')

const { values: args } = parseArgs({
  options: {
    tasks: { type: 'string', default: '100000' },
    streams: { type: 'string', default: '50' },
    seconds: { type: 'string', default: '5' },
  },
  args: process.argv.slice(2).filter((arg) => arg !== '--'),
})
const tasks = Number(args.tasks)
const streams = Number(args.streams)
const seconds = Number(args.seconds)

/** One full-list download, read as fast as it arrives; resolves with its status. */
function download(url: string): Promise<number> {
  return new Promise((resolvePromise) => {
    const req = request(`${url}/tasks`, { agent: false }, (response) => {
      response.on('data', () => {})
      response.on('end', () => resolvePromise(response.statusCode ?? 0))
      response.on('error', () => resolvePromise(0))
    })
    req.on('error', () => resolvePromise(0))
    req.end()
  })
}

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

const work = mkdtempSync(join(tmpdir(), 'tasklane-fair-'))
try {
  const file = join(work, 'tasks.db')
  const server = await startServer({
    name: 'fair-streams',
    command: process.execPath,
    args: [join(SERVER_DIR, 'dist/main.js')],
    cwd: work,
    env: { DATABASE_URL: file, MAX_STREAMS: String(streams), LOG_LEVEL: 'warn' },
    readyPath: '/health/ready',
    logDir: work,
  })
  seedSqlite(file, tasks)

  const until = performance.now() + seconds * 1000
  let lists = 0
  const refused = { lists: 0 }
  const streamers = Array.from({ length: streams }, async () => {
    while (performance.now() < until) {
      const status = await download(server.url)
      if (status === 200) lists++
      else refused.lists++
    }
  })
  const latencies: number[] = []
  const statuses: Record<number, number> = {}
  for (let n = 0; performance.now() < until; n++) {
    const { status, ms } = await timedCreate(server.url, n)
    statuses[status] = (statuses[status] ?? 0) + 1
    latencies.push(ms)
  }
  await Promise.all(streamers)
  await server.stop()
  const ordered = sorted(latencies)
  console.log(
    JSON.stringify({
      tasks,
      streams,
      seconds,
      creates: latencies.length,
      createStatuses: statuses,
      createMs: {
        p50: round(percentile(ordered, 50)),
        p99: round(percentile(ordered, 99)),
        max: round(ordered.at(-1) ?? Number.NaN),
      },
      fullListsCompleted: lists,
      fullListsRefused: refused.lists,
    }),
  )
} finally {
  await killAll()
  rmSync(work, { recursive: true, force: true })
}
