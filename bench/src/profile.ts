/**
 * `pnpm --filter @tasklane/bench profile`: runs the built server under `node --cpu-prof`,
 * loads one route with autocannon, stops the server and prints the functions with the most
 * self time. The .cpuprofile stays in --out for a flame graph (Chrome DevTools, speedscope).
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { readSelfTimes } from './cpu-profile.js'
import { type LoadRequest, load } from './load.js'
import { killAll, startServer } from './processes.js'
import { createScratchDatabase, seedPostgres, seedSqlite } from './seed.js'
import { mixed } from './sweep.js'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const USAGE = `Usage: pnpm --filter @tasklane/bench profile [-- options]
  --route <tail|full|create|patch|mixed-full|mixed-tail>  what to load (default tail:
                              GET /tasks?limit=20&after=<newest − 20>; patch: PATCH /tasks/<random
                              seeded id>, a new name each time; mixed-*: the page, 1 % of requests a PATCH)
  --pg <url>                  profile on PostgreSQL (a scratch database next to the URL's)
  --seconds <n>               load duration (default 5)
  --connections <n>           autocannon connections (default 50)
  --tasks <n>                 seeded tasks (default 100000)
  --top <n>                   functions to print (default 25)
  --out <dir>                 where the .cpuprofile goes (default a temporary directory)
  (the server is the built one: run pnpm build first)`

const { values: args } = parseArgs({
  args: process.argv.slice(2).filter((arg) => arg !== '--'),
  options: {
    route: { type: 'string', default: 'tail' },
    pg: { type: 'string' },
    seconds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '50' },
    tasks: { type: 'string', default: '100000' },
    top: { type: 'string', default: '25' },
    out: { type: 'string' },
    help: { type: 'boolean', default: false },
  },
  strict: true,
})
const tasks = Number(args.tasks)
const requests: Record<string, LoadRequest> = {
  tail: { method: 'GET', path: `/tasks?limit=20&after=${tasks - 20}` },
  full: { method: 'GET', path: '/tasks?limit=20' },
  create: { method: 'POST', path: '/task', body: JSON.stringify({ name: 'Profiled', tag: 'p' }) },
  patch: {
    method: 'PATCH',
    path: '/tasks/1',
    body: JSON.stringify({ name: 'Profiled' }),
    vary: () => ({
      path: `/tasks/${1 + Math.floor(Math.random() * tasks)}`,
      body: JSON.stringify({ name: `Profiled ${Math.random()}` }),
    }),
  },
  'mixed-full': mixed('/tasks?limit=20', tasks)[0] as LoadRequest,
  'mixed-tail': mixed(`/tasks?limit=20&after=${tasks - 20}`, tasks)[0] as LoadRequest,
}
if (args.help || !Object.hasOwn(requests, args.route)) {
  console.log(USAGE)
  process.exit(args.help ? 0 : 2)
}
const request = requests[args.route] as LoadRequest

const work = mkdtempSync(join(tmpdir(), 'tasklane-profile-'))
const out = resolve(args.out ?? join(work, 'profile'))
mkdirSync(out, { recursive: true })
let drop: (() => Promise<void>) | undefined
try {
  let url = join(work, 'profile.db')
  if (args.pg) {
    const scratch = await createScratchDatabase(args.pg)
    drop = scratch.drop
    url = scratch.url
  }
  const server = await startServer({
    name: 'profiled',
    command: process.execPath,
    args: ['--cpu-prof', `--cpu-prof-dir=${out}`, join(ROOT, 'apps/server/dist/main.js')],
    cwd: work,
    env: { DATABASE_URL: url },
    readyPath: '/health/ready',
    logDir: work,
  })
  if (args.pg) await seedPostgres(url, tasks)
  else seedSqlite(url, tasks)
  const options = { connections: Number(args.connections), seconds: Number(args.seconds) }
  // Only the load's samples count: start-up (module loading, seeding) is not the route's.
  const clock = () => Number(process.hrtime.bigint() / 1000n)
  const from = clock()
  const result = await load(server.url, [request], options)
  const to = clock()
  await server.stop({ graceMs: 20_000 })
  console.log(
    `${request.method} ${request.path}, ${options.connections} connections: ${Math.round(result.rps)} req/s, p50 ${result.p50.toFixed(2)} ms, p99 ${result.p99.toFixed(2)} ms`,
  )
  // One profile per thread: the main thread's is the largest (the SQLite writer's is small).
  const file = readdirSync(out)
    .filter((name) => name.endsWith('.cpuprofile'))
    .sort((a, b) => statSync(join(out, b)).size - statSync(join(out, a)).size)[0]
  if (!file) throw new Error(`No .cpuprofile in ${out}`)
  console.log(`\nself time, % of busy samples (${join(out, file)}):`)
  for (const { frame, share } of readSelfTimes(join(out, file), { from, to }).slice(
    0,
    Number(args.top),
  )) {
    console.log(`${(share * 100).toFixed(1).padStart(5)} %  ${frame}`)
  }
} finally {
  await drop?.().catch(() => {})
  void killAll()
  if (!args.out) rmSync(join(work, 'profile.db'), { force: true })
}
