// The command line of `pnpm bench`: its options, their defaults and what they make of a run.
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { DEFAULT_SCENARIOS, scenarios } from './sweep.js'

export const BENCH_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..')
export const ROOT = resolve(BENCH_DIR, '..')
export const SERVER_DIR = join(ROOT, 'apps/server')

export const USAGE = `Usage: pnpm bench [-- options]
  --quick                 shorter run: 2 rounds of 2 s, fewer latency samples
  --pg <url>              also benchmark tasklane on PostgreSQL; a scratch database is
                          created next to the one the URL names and dropped afterwards;
                          and a second server on it through PgBouncer in transaction mode
                          (when /usr/sbin/pgbouncer is installed), with DATABASE_DIRECT_URL
  --rounds <n>            interleaved rounds of the sweep (default 3, quick 2)
  --seconds <n>           seconds per load run (default 3, quick 2)
  --connections <list>    the sweep's autocannon connections (default 1,10,50,100)
  --scenarios <list>      the sweep's scenarios, of full,tail,create,patch,delete,
                          mixed-full,mixed-tail (default full,tail,create,patch; delete:
                          tasks made for it by POST before each load, unmeasured, so it
                          never runs short; mixed-*: the page with 1 % of requests a
                          durable PATCH)
  --sweep-only            only the sweep (and commit latency): no latency, streaming,
                          SDK, insert or fan-out figures
  --ablation              also the ablation table: tasklane with each per-request feature
                          left out in turn (and with tracing on), against tasklane whole
                          and the ceiling, at 50 connections (the full page, the tail page,
                          durable POST)
  --planning              only the planning listings (no sweep): sort=due, sort=position&list=1,
                          q=<one word>, q=<three words>, overdue=true, sort=priority&order=desc
                          beside GET /tasks?limit=20, at 1,000 tasks and at --tasks, on SQLite
                          (and on PostgreSQL with --pg) seeded with priorities, due days,
                          positions and notes; at 10 connections, --rounds × --seconds
  --webhooks              only webhook deliveries (no sweep): a backlog of --webhook-changes
                          created tasks delivered to 1 webhook, then to 100, on a receiver
                          on 127.0.0.1 answering 204; deliveries/s until every cursor is
                          at the newest seq
  --webhook-changes <n>   tasks created for --webhooks (default 200, quick 50)
  --write-cost            only the storage's CPU a durable write (no sweep, no HTTP): batches
                          of 25 creates, renames and deletes through the server's storage on
                          a seeded SQLite file of --tasks, whole and without each of its
                          parts (search index, history, sorts' indexes), --rounds rounds
  --no-pin                do not pin the servers and the load generator to cores
  --baseline <main.js>    another build (e.g. the previous release) beside this one in the
                          same sweep, interleaved, on its own seeded SQLite file
  --server <main.js>      a server build other than apps/server/dist (to compare builds);
                          not rebuilt
  --tasks <n>             tasks in the loaded table (default 100000)
  --large <n>             tasks in the large table of the latency/streaming figures (default 1000000)
  --log-level <level>     LOG_LEVEL for the tasklane servers (default: the server's own default)
  --out <dir>             where latest.json and chart.svg go (default bench/results)
  --help`

export const { values: args } = parseArgs({
  args: process.argv.slice(2).filter((arg) => arg !== '--'),
  options: {
    quick: { type: 'boolean', default: false },
    pg: { type: 'string' },
    rounds: { type: 'string' },
    seconds: { type: 'string' },
    connections: { type: 'string' },
    scenarios: { type: 'string' },
    'sweep-only': { type: 'boolean', default: false },
    ablation: { type: 'boolean', default: false },
    'no-pin': { type: 'boolean', default: false },
    planning: { type: 'boolean', default: false },
    'write-cost': { type: 'boolean', default: false },
    webhooks: { type: 'boolean', default: false },
    'webhook-changes': { type: 'string' },
    server: { type: 'string' },
    baseline: { type: 'string' },
    tasks: { type: 'string' },
    large: { type: 'string' },
    'log-level': { type: 'string' },
    out: { type: 'string' },
    help: { type: 'boolean', default: false },
  },
  strict: true,
})
if (args.help) {
  console.log(USAGE)
  process.exit(0)
}

function positive(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback
  const n = Number(value)
  if (!Number.isInteger(n) || n < 1) {
    console.error(`--${name} must be a positive integer.\n\n${USAGE}`)
    process.exit(2)
  }
  return n
}

function connectionList(value: string | undefined): number[] {
  if (value === undefined) return [1, 10, 50, 100]
  const list = value.split(',').map(Number)
  if (list.length === 0 || list.some((n) => !Number.isInteger(n) || n < 1)) {
    console.error(`--connections must be positive integers separated by commas.\n\n${USAGE}`)
    process.exit(2)
  }
  return list
}

export const quick = args.quick
export const settings = {
  quick,
  rounds: positive('rounds', args.rounds, quick ? 2 : 3),
  seconds: positive('seconds', args.seconds, quick ? 2 : 3),
  connections: connectionList(args.connections),
  tasks: positive('tasks', args.tasks, 100_000),
}
export const sweepScenarios = scenarios(settings.tasks).filter((scenario) =>
  (args.scenarios?.split(',') ?? DEFAULT_SCENARIOS).includes(scenario.id),
)
if (sweepScenarios.length === 0) {
  console.error(
    `--scenarios names none of ${scenarios(0)
      .map((s) => s.id)
      .join(', ')}.\n\n${USAGE}`,
  )
  process.exit(2)
}
/** Connections of the durable-insert figures, with and without group commit. */
export const INSERT_CONNECTIONS = 10
// pnpm runs the script in bench/; a relative --server is meant from where pnpm was started.
export const serverMain = args.server
  ? resolve(process.env.INIT_CWD ?? process.cwd(), args.server)
  : join(SERVER_DIR, 'dist/main.js')
/** Another build loaded beside this one in the sweep (`--baseline`), resolved like --server. */
export const baselineMain = args.baseline
  ? resolve(process.env.INIT_CWD ?? process.cwd(), args.baseline)
  : undefined
export const largeTasks = positive('large', args.large, 1_000_000)
export const smallTasks = 1_000
/** Connections of the planning listings' loads. */
export const PLANNING_CONNECTIONS = 10
export const webhookChanges = positive('webhook-changes', args['webhook-changes'], quick ? 50 : 200)
/** How long one --webhooks figure may take: a minute, and 20 ms a delivery (at least 50 a second). */
export const webhookTimeoutMs = (deliveries: number) => 60_000 + deliveries * 20
export const latencyIterations = quick ? 600 : 2_000
export const sdkIterations = quick ? 1_000 : 3_000
export const insertSeconds = quick ? 2 : 4
/** Round one starts with an unrecorded load of each scenario, so that the JIT has settled. */
export const warmupSeconds = quick ? 1 : 2
export const outDir = resolve(args.out ?? join(BENCH_DIR, 'results'))
