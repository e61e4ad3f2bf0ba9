/**
 * `pnpm bench`: tasklane against a bare-Fastify ceiling on 127.0.0.1, plus list latency,
 * streaming, inserts, the client's overhead and the feed's fan-out. Every server is a child process; all of them are killed on exit,
 * also on failure or Ctrl-C, and a watchdog bounds the whole run.
 *
 * Longer than the other files on purpose: `main()` is the run itself, each figure in the
 * order it is measured and reported, to be read top to bottom; the measuring is in the
 * modules it imports, the command line in options.ts.
 */

import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { envName } from '@tasklane/server'
import { ABLATED_PLUGINS } from './ablated-plugins.js'
import { type AblationVariant, otlpSink, runAblation } from './ablation.js'
import { baselineTable } from './baseline-report.js'
import { renderChart } from './chart.js'
import { batchedLimits, fsyncLatency, postgresCommitLatency } from './commit-cost.js'
import { rawSqliteInserts } from './durable.js'
import { fanOut } from './fanout.js'
import { evaluateGoals } from './goals.js'
import { interleavedLatency, timedGet } from './latency.js'
import { type LoadRequest, load } from './load.js'
import { describeMachine } from './machine.js'
import {
  args,
  BENCH_DIR,
  baselineMain,
  INSERT_CONNECTIONS,
  insertSeconds,
  largeTasks,
  latencyIterations,
  outDir,
  PLANNING_CONNECTIONS,
  quick,
  SERVER_DIR,
  sdkIterations,
  serverMain,
  settings,
  smallTasks,
  sweepScenarios,
  warmupSeconds,
  webhookChanges,
  webhookTimeoutMs,
} from './options.js'
import { measurePlanning, type PlanningFigures } from './planning.js'
import { planningTable, webhooksTable } from './planning-report.js'
import { pooledPostgres } from './pooler.js'
import { killAll, pinCores, type ServerProcess, startServer } from './processes.js'
import { ablationTable, batchedTable, goalsTable, loadTable, otherFigures } from './report.js'
import type { BenchResults, CommitCost, TargetId } from './results.js'
import { sdkOverhead } from './sdk.js'
import { createScratchDatabase, seedPostgres, seedSqlite } from './seed.js'
import { median } from './stats.js'
import { ablateSchema, STORAGE_ABLATIONS, type StorageAblation } from './storage-ablation.js'
import { streamAll } from './stream.js'
import { POST_BODY, probePatch, runSweep, scenarios } from './sweep.js'
import { type DeliveryFigures, measureDeliveries, webhookReceiver } from './webhooks.js'
import { measureWriteCost, writeCostTable } from './write-cost.js'

/** The command line as a reader can retype it, without a database password. */
function commandLine(): string {
  const shown = process.argv.slice(2).filter((arg) => arg !== '--')
  const masked = shown.map((arg) =>
    arg.replace(/^(postgres(?:ql)?:\/\/[^:/@]+):[^@]*@/i, '$1:***@'),
  )
  return masked.length === 0 ? 'pnpm bench' : `pnpm bench -- ${masked.join(' ')}`
}

const work = mkdtempSync(join(tmpdir(), 'tasklane-bench-'))
const notes: string[] = []
const cleanups: (() => Promise<void>)[] = []

function note(message: string): void {
  notes.push(message)
  console.log(`note: ${message}`)
}

process.on('exit', (code) => {
  void killAll()
  // On failure the servers' logs stay for a post-mortem; the databases go.
  if (code === 0) rmSync(work, { recursive: true, force: true })
  else {
    for (const file of readdirSync(work))
      if (!file.endsWith('.log')) rmSync(join(work, file), { force: true })
    console.error(`The servers' output is in ${work}`)
  }
})
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`\n${signal}: stopping the servers.`)
    process.exit(130)
  })
}
// A bound on the whole run, whatever hangs: children are killed by the exit handler.
const watchdog = setTimeout(
  () => {
    console.error('The benchmark took too long; stopping.')
    process.exit(1)
  },
  (quick ? 5 : 15) * 60_000 +
    settings.rounds *
      (settings.seconds + warmupSeconds) *
      1_500 *
      (settings.connections.length * sweepScenarios.length * 4 + (args.ablation ? 20 * 4 : 0)) +
    (args.webhooks
      ? webhookTimeoutMs(webhookChanges) + webhookTimeoutMs(100 * webhookChanges)
      : 0) +
    // The DELETE scenario's tasks, made before each of its loads: up to half a minute each.
    (sweepScenarios.some((s) => s.id === 'delete')
      ? settings.rounds * settings.connections.length * 4 * 30_000
      : 0),
)
watchdog.unref()

const log = (message: string) =>
  console.log(`[${new Date().toISOString().slice(11, 19)}] ${message}`)

function buildServer(): void {
  log('building the server (tsup)')
  const tsup = join(SERVER_DIR, 'node_modules/.bin/tsup')
  const result = spawnSync(tsup, ['--silent'], {
    cwd: SERVER_DIR,
    stdio: 'inherit',
    timeout: 180_000,
  })
  if (result.status !== 0 || !existsSync(join(SERVER_DIR, 'dist/main.js'))) {
    throw new Error('Building the server failed; see the output above.')
  }
}

function startTasklane(
  name: string,
  databaseUrl: string,
  env: Record<string, string> = {},
  main = serverMain,
) {
  return startServer({
    name,
    command: process.execPath,
    args: [main],
    cwd: work,
    env: {
      DATABASE_URL: databaseUrl,
      ...(args['log-level'] ? { LOG_LEVEL: args['log-level'] } : {}),
      ...env,
    },
    readyPath: '/health/ready',
    logDir: work,
  })
}

function startCeiling() {
  return startServer({
    name: 'ceiling',
    command: process.execPath,
    args: ['--import', 'tsx', join(BENCH_DIR, 'src/ceiling-server.ts')],
    cwd: BENCH_DIR,
    env: {},
    readyPath: '/tasks?limit=20',
    logDir: work,
  })
}

/** A fresh SQLite file with the server's schema (the server migrates it) and `count` tasks. */
async function seededSqliteServer(
  name: string,
  count: number,
  env: Record<string, string> = {},
  main = serverMain,
  seed: { planned?: boolean } = {},
): Promise<ServerProcess> {
  const file = join(work, `${name}.db`)
  const server = await startTasklane(name, file, env, main)
  const started = performance.now()
  seedSqlite(file, count, seed)
  log(
    `${name}: seeded ${count.toLocaleString('en')} tasks in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  )
  return server
}

async function postgresServer(
  url: string,
): Promise<{ server: ServerProcess; url: string } | undefined> {
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>
  try {
    scratch = await createScratchDatabase(url)
  } catch (error) {
    note(`PostgreSQL skipped: could not create a scratch database (${(error as Error).message}).`)
    return undefined
  }
  cleanups.push(() => scratch.drop())
  let server: ServerProcess
  try {
    server = await startTasklane('postgres', scratch.url)
  } catch (error) {
    const reason = (error as Error).message.split('\n').find((line) => /postgres/i.test(line))
    note(
      `PostgreSQL skipped: the server did not start on it${reason ? ` (${reason.trim().slice(0, 160)})` : ''}.`,
    )
    return undefined
  }
  await seedPostgres(scratch.url, settings.tasks)
  log(`postgres: seeded ${settings.tasks.toLocaleString('en')} tasks`)
  return { server, url: scratch.url }
}

/** Every scenario's first request answered as it should, before any load. */
async function checkTarget(
  id: TargetId,
  server: ServerProcess,
  measured: readonly { requests: (typeof sweepScenarios)[number]['requests'] }[] = sweepScenarios,
): Promise<void> {
  const headers = server.headers ?? {}
  for (const scenario of measured) {
    const [request] = await scenario.requests(id, server)
    if (!request) continue
    const response = await fetch(server.url + request.path, {
      method: request.method,
      headers:
        request.body === undefined ? headers : { 'content-type': 'application/json', ...headers },
      body: request.body,
    })
    const expected = { POST: 201, DELETE: 204 }[request.method as string] ?? 200
    const answer = (response.status === 204 ? undefined : await response.json()) as unknown
    const page = request.method === 'GET'
    if (response.status !== expected || (page && (answer as unknown[]).length !== 20)) {
      throw new Error(
        `${server.name}: ${request.method} ${request.path} answered ${response.status}`,
      )
    }
  }
}

/** The server's own setting that turns group commit off, named by its settings schema. */
const GROUP_COMMIT_OFF = { [envName('groupCommit')]: 'off' }

async function durableInserts(
  server: ServerProcess,
): Promise<NonNullable<BenchResults['inserts']>> {
  const create: LoadRequest[] = [{ method: 'POST', path: '/task', body: POST_BODY }]
  const seconds = insertSeconds
  const connections = INSERT_CONNECTIONS
  const one = await load(server.url, create, { connections: 1, seconds })
  const concurrent = await load(server.url, create, { connections, seconds })
  log(
    `durable inserts: ${Math.round(one.rps)}/s at 1 connection, ${Math.round(concurrent.rps)}/s at ${connections}`,
  )
  const plain = await startTasklane(
    'no-group-commit',
    join(work, 'no-group-commit.db'),
    GROUP_COMMIT_OFF,
  )
  let withoutGroupCommit: number
  try {
    withoutGroupCommit = (await load(plain.url, create, { connections, seconds })).rps
  } finally {
    await plain.stop()
  }
  const sqliteOnePerCommit = rawSqliteInserts(work, 1, Math.min(seconds, 2))
  const sqliteHundredPerCommit = rawSqliteInserts(work, 100, Math.min(seconds, 2))
  return {
    oneConnection: one.rps,
    concurrent: concurrent.rps,
    connections,
    withoutGroupCommit,
    sqliteOnePerCommit,
    sqliteHundredPerCommit,
  }
}

/** tasklane from source (bench/src/ablation-server.ts) with `without` left out. */
function startAblationServer(
  name: string,
  without: readonly string[],
  extra: readonly string[] = [],
): Promise<ServerProcess> {
  return startServer({
    name,
    command: process.execPath,
    args: [
      '--conditions=@tasklane/source',
      '--import',
      'tsx',
      join(BENCH_DIR, 'src/ablation-server.ts'),
      `--without=${without.join(',')}`,
      ...extra,
    ],
    cwd: BENCH_DIR,
    env: {
      DATABASE_URL: join(work, `${name}.db`),
      ...(args['log-level'] ? { LOG_LEVEL: args['log-level'] } : {}),
    },
    readyPath: '/health/ready',
    logDir: work,
  })
}

/** The ablation's admin credential: the server's API_TOKEN. */
const ADMIN_TOKEN = 'bench-admin-token-bench-admin-token'

/**
 * The built server with credentials, every request sent with an access token of a member
 * (an editor of list 1, where every seeded task is), so each one is authenticated and has
 * its rights checked: priced against the built server in open mode.
 */
async function withRights(): Promise<AblationVariant> {
  const server = await seededSqliteServer('ablation-rights', settings.tasks, {
    [envName('apiToken')]: ADMIN_TOKEN,
  })
  const admin = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }
  const member = await fetch(`${server.url}/lists/1/members/bench-editor`, {
    method: 'PUT',
    headers: admin,
    body: JSON.stringify({ role: 'editor' }),
  })
  const made = await fetch(`${server.url}/tokens`, {
    method: 'POST',
    headers: admin,
    body: JSON.stringify({ name: 'bench', principal: 'bench-editor', role: 'write' }),
  })
  const { token } = (await made.json()) as { token?: string }
  if (member.status !== 201 || made.status !== 201 || token === undefined) {
    throw new Error(
      `ablation-rights: PUT /lists/1/members answered ${member.status}, POST /tokens ${made.status}`,
    )
  }
  return {
    id: 'rights',
    label: "  with an editor's access token",
    server: { ...server, headers: { authorization: `Bearer ${token}` } },
    baseline: 'built',
  }
}

/** The ablation's JWT secret (HS256): AUTH_JWT_SECRET of the server signing-in by JWT. */
const JWT_SECRET = 'bench-jwt-secret-bench-jwt-secret-bench'

/** The part of jose used here (the server's own copy: jose is no dependency of the bench). */
interface Jose {
  SignJWT: new (
    payload: Record<string, unknown>,
  ) => {
    setProtectedHeader(header: { alg: string }): {
      setSubject(sub: string): {
        setExpirationTime(exp: string): { sign(key: Uint8Array): Promise<string> }
      }
    }
  }
}

/**
 * The built server taking JWTs (AUTH_JWT_SECRET), every request sent with one an app would
 * mint for a user who is an editor of list 1: each verified (HS256) and its rights checked,
 * priced against the built server in open mode.
 */
async function withJwt(): Promise<AblationVariant> {
  const server = await seededSqliteServer('ablation-jwt', settings.tasks, {
    [envName('apiToken')]: ADMIN_TOKEN,
    [envName('authJwtSecret')]: JWT_SECRET,
  })
  const member = await fetch(`${server.url}/lists/1/members/bench-user`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ role: 'editor' }),
  })
  if (member.status !== 201) {
    throw new Error(`ablation-jwt: PUT /lists/1/members answered ${member.status}`)
  }
  const jose = createRequire(import.meta.resolve('@tasklane/server'))('jose') as Jose
  const jwt = await new jose.SignJWT({})
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject('bench-user')
    .setExpirationTime('2h')
    .sign(new TextEncoder().encode(JWT_SECRET))
  return {
    id: 'jwt',
    label: "  with an app's JWT (HS256)",
    server: { ...server, headers: { authorization: `Bearer ${jwt}` } },
    baseline: 'built',
  }
}

/** Connections of the ablation: the goals' concurrency. */
const ABLATION_CONNECTIONS = 50

/**
 * The ablation: the ceiling; tasklane whole and without each feature in turn (and
 * without all of them), each on its own seeded SQLite file; the built server without
 * and with tracing (to a local sink). The full page, the tail page and durable POST.
 */
async function ablation(): Promise<NonNullable<BenchResults['ablation']>> {
  log('ablation: starting the servers')
  const sink = await otlpSink()
  cleanups.push(sink.close)
  const seeded = async (server: ServerProcess, name: string) => {
    seedSqlite(join(work, `${name}.db`), settings.tasks)
    return server
  }
  const variants: AblationVariant[] = [
    { id: 'ceiling', label: 'ceiling (bare Fastify)', server: await startCeiling() },
    {
      id: 'whole',
      label: 'tasklane whole (from source)',
      server: await seeded(await startAblationServer('ablation-whole', []), 'ablation-whole'),
    },
  ]
  for (const feature of ABLATED_PLUGINS) {
    const name = `ablation-without-${feature}`
    variants.push({
      id: `without-${feature}`,
      label: `  without ${feature}`,
      server: await seeded(await startAblationServer(name, [feature]), name),
      baseline: 'whole',
    })
  }
  variants.push({
    id: 'everything-off',
    label: `  without all ${ABLATED_PLUGINS.length}`,
    server: await seeded(
      await startAblationServer('ablation-none', ABLATED_PLUGINS),
      'ablation-none',
    ),
    baseline: 'whole',
  })
  // Compression's threshold priced: a browser's Accept-Encoding on every request, with the
  // product's threshold (the 20-task page is sent as it is) and with every body compressed.
  const accepting = { 'accept-encoding': 'gzip, deflate, br, zstd' }
  variants.push(
    {
      id: 'whole-accepting',
      label: 'tasklane whole, Accept-Encoding: br, gzip',
      server: {
        ...(await seeded(
          await startAblationServer('ablation-accepting', []),
          'ablation-accepting',
        )),
        headers: accepting,
      },
    },
    {
      id: 'compress-all',
      label: '  compressing every body (no threshold)',
      server: {
        ...(await seeded(
          await startAblationServer('ablation-compress-all', [], ['--compress-all']),
          'ablation-compress-all',
        )),
        headers: accepting,
      },
      baseline: 'whole-accepting',
    },
  )
  variants.push(
    {
      id: 'built',
      label: 'tasklane built (dist/main.js)',
      server: await seededSqliteServer('ablation-built', settings.tasks),
    },
    {
      id: 'tracing',
      label: '  with tracing (OTLP to a local sink)',
      server: await seededSqliteServer('ablation-tracing', settings.tasks, {
        OTEL_EXPORTER_OTLP_ENDPOINT: sink.url,
      }),
      baseline: 'built',
    },
  )
  variants.push(await withRights(), await withJwt())
  // The storage's own features, each taken out of the built server's schema in turn.
  const parts = Object.keys(STORAGE_ABLATIONS) as StorageAblation[]
  for (const without of [...parts.map((part) => [part]), parts]) {
    const name = `ablation-storage-without-${without.join('-')}`
    const server = await seededSqliteServer(name, settings.tasks)
    ablateSchema(join(work, `${name}.db`), without)
    variants.push({
      id: `storage-without-${without.join('-')}`,
      label:
        without.length === 1
          ? `  without ${STORAGE_ABLATIONS[without[0] as StorageAblation].label}`
          : `  without all ${without.length} of the storage's`,
      server,
      baseline: 'built',
    })
  }
  const measured = scenarios(settings.tasks).filter((s) =>
    ['full', 'tail', 'create', 'patch'].includes(s.id),
  )
  for (const variant of variants) {
    const target = variant.id === 'ceiling' ? 'ceiling' : 'sqlite'
    await checkTarget(target, variant.server, measured)
  }
  const result = await runAblation(variants, measured, {
    connections: ABLATION_CONNECTIONS,
    rounds: settings.rounds,
    seconds: settings.seconds,
    warmupSeconds,
    log,
  })
  log(`ablation: the OTLP sink received ${sink.received()} exports`)
  if (sink.received() === 0) note('ablation: the tracing server sent no spans to the sink.')
  for (const variant of variants) await variant.server.stop()
  return result
}

/** Commit latency of each backend on this machine, measured now. */
async function measureCommitCost(postgresUrl: string | undefined): Promise<CommitCost> {
  const cost: CommitCost = { sqliteFsyncMs: fsyncLatency(work) }
  if (postgresUrl) cost.postgresCommitMs = await postgresCommitLatency(postgresUrl)
  log(
    `commit latency: fsync ${cost.sqliteFsyncMs.toFixed(3)} ms${cost.postgresCommitMs === undefined ? '' : `, PostgreSQL insert ${cost.postgresCommitMs.toFixed(3)} ms`}`,
  )
  return cost
}

/** `--planning`: the planning listings at 1,000 tasks and at --tasks, on SQLite (and --pg). */
async function planningRun(): Promise<void> {
  const figures: PlanningFigures[] = []
  const measure = (server: ServerProcess, backend: PlanningFigures['backend'], count: number) =>
    measurePlanning(
      server.url,
      backend,
      count,
      {
        connections: PLANNING_CONNECTIONS,
        rounds: settings.rounds,
        seconds: settings.seconds,
        warmupSeconds,
      },
      log,
    )
  for (const count of [...new Set([smallTasks, settings.tasks])]) {
    const name = `planning-${count}`
    const server = await seededSqliteServer(name, count, {}, serverMain, { planned: true })
    try {
      figures.push(...(await measure(server, 'sqlite', count)))
    } finally {
      await server.stop()
    }
    if (!args.pg) continue
    const scratch = await createScratchDatabase(args.pg)
    cleanups.push(() => scratch.drop())
    const onPostgres = await startTasklane(`${name}-postgres`, scratch.url)
    try {
      await seedPostgres(scratch.url, count, { planned: true })
      log(`${name}-postgres: seeded ${count.toLocaleString('en')} tasks`)
      figures.push(...(await measure(onPostgres, 'postgres', count)))
    } finally {
      await onPostgres.stop()
    }
  }
  writeModeResults('planning.json', { figures })
  console.log(`\n${planningTable(figures)}\n`)
}

/** `--webhooks`: a backlog of created tasks delivered to 1 webhook, then to 100. */
async function webhooksRun(): Promise<void> {
  const receiver = await webhookReceiver()
  cleanups.push(receiver.close)
  const server = await startTasklane('webhooks', join(work, 'webhooks.db'), {
    WEBHOOK_ALLOWED_HOSTS: `127.0.0.1:${receiver.port}`,
  })
  const figures: DeliveryFigures[] = []
  try {
    for (const webhooks of [1, 100]) {
      const figure = await measureDeliveries(server.url, receiver, {
        webhooks,
        changes: webhookChanges,
        timeoutMs: webhookTimeoutMs(webhooks * webhookChanges),
      })
      log(
        `webhooks: ${webhooks} × ${webhookChanges} changes in ${figure.seconds.toFixed(2)} s, ${Math.round(figure.perSecond)} deliveries/s`,
      )
      figures.push(figure)
    }
  } finally {
    await server.stop()
  }
  writeModeResults('webhooks.json', { figures })
  console.log(`\n${webhooksTable(figures)}\n`)
}

/** `--write-cost`: the storage's CPU a durable write, whole and without each of its parts. */
async function writeCostRun(): Promise<void> {
  const rows = await measureWriteCost(work, settings.tasks, {
    rounds: settings.rounds,
    batches: quick ? 100 : 200,
    log,
  })
  writeModeResults('write-cost.json', { rows })
  console.log(`\n${writeCostTable(rows)}\n`)
}

/** Figures of --planning, --webhooks or --write-cost, with the run's command, date and machine. */
function writeModeResults(file: string, figures: object): void {
  mkdirSync(outDir, { recursive: true })
  const results = {
    command: commandLine(),
    date: new Date().toISOString(),
    machine: describeMachine(),
    settings,
    notes,
    ...figures,
  }
  writeFileSync(join(outDir, file), `${JSON.stringify(results, null, 2)}\n`)
  for (const line of notes) console.log(`note: ${line}`)
  console.log(`wrote ${relative(process.cwd(), join(outDir, file))}`)
}

async function main(): Promise<void> {
  const machine = describeMachine()
  console.log(
    `tasklane benchmark: ${machine.nproc} × ${machine.cpu}, Node ${machine.node}; ${settings.rounds} rounds × ${settings.seconds} s at ${settings.connections.join(', ')} connections${quick ? ' (quick)' : ''}`,
  )
  if (args.server) log(`server: ${serverMain} (not rebuilt)`)
  else buildServer()
  const pinning = args['no-pin'] ? 'not pinned to cores (--no-pin)' : pinCores()
  log(pinning)
  if (args.planning || args.webhooks || args['write-cost']) {
    if (args.planning) await planningRun()
    if (args.webhooks) await webhooksRun()
    if (args['write-cost']) await writeCostRun()
    return
  }

  const partial: Omit<BenchResults, 'goals'> = {
    command: commandLine(),
    date: new Date().toISOString(),
    machine,
    settings,
    notes,
    pinning,
    load: [],
  }

  // 1. Ceiling, SQLite and (when asked) PostgreSQL, every scenario at every concurrency,
  // interleaved; commit latency measured before and after the sweep (medians of both).
  const ceiling = await startCeiling()
  const sqlite = await seededSqliteServer('sqlite', settings.tasks)
  const targets: [TargetId, ServerProcess][] = [
    ['ceiling', ceiling],
    ['sqlite', sqlite],
  ]
  if (baselineMain) {
    log(`baseline: ${baselineMain} (not rebuilt), beside this build`)
    targets.push([
      'baseline',
      await seededSqliteServer('baseline', settings.tasks, {}, baselineMain),
    ])
  }
  let postgresUrl: string | undefined
  if (args.pg) {
    const postgres = await postgresServer(args.pg)
    if (postgres) {
      targets.push(['postgres', postgres.server])
      postgresUrl = postgres.url
      const pooled = await pooledPostgres(postgres.url, (databaseUrl, env) =>
        startTasklane('pgbouncer', databaseUrl, env),
      )
      if (typeof pooled === 'string') note(pooled)
      else {
        cleanups.push(pooled.stop)
        targets.push(['pgbouncer', pooled.server])
      }
    }
  } else {
    note('PostgreSQL not measured: pass --pg postgres://user:password@127.0.0.1/db to include it.')
  }
  const patching = sweepScenarios.some((s) =>
    ['patch', 'delete', 'mixed-full', 'mixed-tail'].includes(s.id),
  )
  for (const [id, server] of targets) {
    if (patching && !(await probePatch(server))) {
      note(
        `${server.name}: PATCH /tasks/1 answered 404 or 405 (a build without PATCH): its PATCH scenarios are skipped.`,
      )
    }
    await checkTarget(id, server)
  }
  const before = await measureCommitCost(postgresUrl)
  partial.load = await runSweep(targets, sweepScenarios, {
    connections: settings.connections,
    rounds: settings.rounds,
    seconds: settings.seconds,
    warmupSeconds,
    log,
  })
  const after = await measureCommitCost(postgresUrl)
  partial.commitCost = {
    sqliteFsyncMs: median([before.sqliteFsyncMs, after.sqliteFsyncMs]),
    ...(postgresUrl === undefined
      ? {}
      : {
          postgresCommitMs: median([
            before.postgresCommitMs as number,
            after.postgresCommitMs as number,
          ]),
        }),
  }
  partial.batchedLimits = ['create', 'patch', 'delete'].flatMap((id) =>
    batchedLimits(
      partial.load.find((s) => s.id === id),
      partial.commitCost as CommitCost,
    ),
  )
  if (args.ablation) {
    for (const [, server] of targets) await server.stop()
    partial.ablation = await ablation()
  }
  if (args['sweep-only']) {
    for (const [, server] of targets) await server.stop()
    return finish(partial)
  }

  // 2. The client SDK over raw fetch, against the loaded SQLite server.
  log('client SDK overhead')
  partial.sdk = await sdkOverhead(sqlite.url, sdkIterations)
  for (const [, server] of targets) await server.stop()

  // 3. Streaming 1M tasks from a fresh process, then list latency at 1k vs 1M tasks.
  const large = await seededSqliteServer('large', largeTasks)
  for (let i = 0; i < 20; i++) await timedGet(`${large.url}/tasks?limit=20`)
  log(`streaming ${largeTasks.toLocaleString('en')} tasks`)
  const streamed = await streamAll(large.url, large.pid, largeTasks)
  partial.streaming = {
    tasks: largeTasks,
    ...streamed,
    rssGrowthMB: streamed.rssPeakMB - streamed.rssBeforeMB,
  }
  const small = await seededSqliteServer('small', smallTasks)
  log('list latency, 1k vs 1M tasks')
  const smallAfter = Math.floor(smallTasks * 0.9)
  const largeAfter = Math.floor(largeTasks * 0.9)
  const [smallTail, largeTail] = [smallTasks - 10, largeTasks - 10]
  const [firstSmall, firstLarge, deepSmall, deepLarge, tailSmall, tailLarge] = (
    await interleavedLatency(
      [
        `${small.url}/tasks?limit=20`,
        `${large.url}/tasks?limit=20`,
        `${small.url}/tasks?limit=20&after=${smallAfter}`,
        `${large.url}/tasks?limit=20&after=${largeAfter}`,
        `${small.url}/tasks?limit=20&after=${smallTail}`,
        `${large.url}/tasks?limit=20&after=${largeTail}`,
      ],
      { iterations: latencyIterations },
    )
  ).map(median) as [number, number, number, number, number, number]
  partial.latency = {
    smallTasks,
    largeTasks,
    firstPage: { smallMs: firstSmall, largeMs: firstLarge, ratio: firstLarge / firstSmall },
    deepCursor: {
      smallMs: deepSmall,
      largeMs: deepLarge,
      ratio: deepLarge / deepSmall,
      smallAfter,
      largeAfter,
    },
    tailPage: {
      smallMs: tailSmall,
      largeMs: tailLarge,
      ratio: tailLarge / tailSmall,
      smallAfter: smallTail,
      largeAfter: largeTail,
    },
  }
  await large.stop()

  // 4. Durable inserts per second.
  log('durable inserts')
  partial.inserts = await durableInserts(small)
  await small.stop()

  // 5. The change feed's fan-out: 1,000 subscribers on a fresh server.
  log('change feed fan-out, 1,000 subscribers')
  // Every subscriber comes from this one address: past the default 16 streams a client,
  // the server would answer 429 (MAX_STREAMS_PER_CLIENT).
  const feed = await seededSqliteServer('feed', smallTasks, { MAX_STREAMS_PER_CLIENT: '1000' })
  // Each task is a thousand deliveries: enough tasks that one slow moment is not the p99.
  partial.fanOut = await fanOut(feed.url, feed.pid, { subscribers: 1_000, tasks: quick ? 50 : 200 })
  await feed.stop()

  return finish(partial)
}

/** Judges the goals, prints the tables, writes latest.json and the chart. */
function finish(partial: Omit<BenchResults, 'goals'>): void {
  const results: BenchResults = { ...partial, goals: evaluateGoals(partial) }
  mkdirSync(outDir, { recursive: true })
  writeFileSync(join(outDir, 'latest.json'), `${JSON.stringify(results, null, 2)}\n`)
  writeFileSync(join(outDir, 'chart.svg'), renderChart(results))

  const other = otherFigures(results)
  const ablated = ablationTable(results)
  const against = baselineTable(results)
  console.log(
    `\n${loadTable(results)}\n\n${against ? `${against}\n\n` : ''}${batchedTable(results)}\n\n${ablated ? `${ablated}\n\n` : ''}${other.includes('\n') ? `${other}\n\n` : ''}${goalsTable(results)}\n`,
  )
  for (const line of notes) console.log(`note: ${line}`)
  console.log(`\nwrote ${relative(process.cwd(), join(outDir, 'latest.json'))} and chart.svg`)
}

try {
  await main()
} catch (error) {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error)
  process.exitCode = 1
} finally {
  for (const cleanup of cleanups) await cleanup().catch(() => {})
  void killAll()
  // Kept-alive sockets must not hold the process open.
  process.exit(process.exitCode ?? 0)
}
