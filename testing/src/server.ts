import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { launch, type ServerProcess } from './launch.js'
import { ROOT } from './packages.js'

const SERVER_DIR = join(ROOT, 'apps/server')

/**
 * The Node.js that runs the server: this one, or TASKLANE_TEST_SERVER_NODE, to test a client
 * or the CLI on one Node against a server on another.
 */
const SERVER_NODE = process.env.TASKLANE_TEST_SERVER_NODE || process.execPath

/**
 * The settings every test server starts with. LOG_LEVEL info: its "Server listening" line
 * is how `launch` finds its port. MAX_EVENT_LOOP_DELAY_MS 0: test files load both cores with
 * servers, CLIs and browsers, and a stall there is not overload (the server's overload
 * tests set their own threshold).
 */
export const TEST_SERVER_ENV = {
  PORT: '0',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'info',
  MAX_EVENT_LOOP_DELAY_MS: '0',
} as const

/** Where a server keeps its tasks and listens: start another on the same to restart it. */
export interface ServerPlace {
  readonly dir: string | undefined
  readonly port: number
}

/** How to start a server; each setting is the server's own (`--help` lists them). */
export interface StartServerOptions {
  /** A bearer token for every API route (API_TOKEN). */
  readonly apiToken?: string
  /** Origins browsers may call from (CORS_ORIGINS). */
  readonly corsOrigins?: readonly string[]
  /** A PostgreSQL URL (its search_path a schema of the test's) instead of an SQLite file. */
  readonly databaseUrl?: string
  /**
   * An earlier server's directory, to start on its tasks (a restart); otherwise a new one,
   * unless the database is elsewhere (`databaseUrl`, or DATABASE_URL in `env`).
   */
  readonly dir?: string | undefined
  /** The port to listen on (an earlier server's, for a restart); a free one otherwise. */
  readonly port?: number
  /** Any other setting, as its environment variable; these win over the options above. */
  readonly env?: NodeJS.ProcessEnv
  /** main.js of a build, run with node; the server's sources through tsx otherwise. */
  readonly main?: string
  /** A command that runs the server, with its arguments: `['prlimit', '--nofile=256:256']`. */
  readonly wrapper?: readonly string[]
}

/** A tasklane server running as a process of its own. */
export interface TasklaneServer {
  /** `http://127.0.0.1:NNNN` */
  readonly url: string
  readonly port: number
  /** The directory of its SQLite file (`tasks.db`); none when the database is elsewhere. */
  readonly dir: string | undefined
  /** Its directory and port, for `startServer(place)` once it is stopped. */
  readonly place: ServerPlace
  /** The process: its output, `kill -9`, its pid. */
  readonly process: ServerProcess
  /** How many tasks it holds: the newest id, on a server that started empty. */
  count(): Promise<number>
  /** The newest change's seq (Tasklane-Seq): `after` it, the feed sends every later change. */
  seq(): Promise<number>
  /** SIGTERM (it drains and exits); its tasks stay, for a restart. */
  stop(): Promise<void>
  /** Stops it and removes its directory, tasks and all. */
  close(): Promise<void>
}

/**
 * The one way the test suites start a tasklane server as a process: on 127.0.0.1, with
 * an SQLite file of its own in a new temporary directory unless told otherwise, from the
 * server's sources unless `main` names a build.
 *
 * @example
 * const server = await startServer({ apiToken: 'secret' })
 * await fetch(`${server.url}/tasks`, { headers: { authorization: 'Bearer secret' } })
 * await server.close()
 */
export async function startServer(options: StartServerOptions = {}): Promise<TasklaneServer> {
  const { apiToken, corsOrigins = [], databaseUrl, port, env = {}, main, wrapper = [] } = options
  const elsewhere = databaseUrl !== undefined || 'DATABASE_URL' in env
  const dir = options.dir ?? (elsewhere ? undefined : mkdtempSync(join(tmpdir(), 'tasklane-test-')))
  const remove = () => {
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true })
  }
  const node = [
    SERVER_NODE,
    ...(main === undefined
      ? ['--import', 'tsx', '--conditions=@tasklane/source', 'src/main.ts']
      : [main]),
  ]
  const [command, ...args] = [...wrapper, ...node] as [string, ...string[]]
  const settings: NodeJS.ProcessEnv = {
    ...TEST_SERVER_ENV,
    PORT: String(port ?? 0),
    ...(dir === undefined ? {} : { DATABASE_URL: join(dir, 'tasks.db') }),
    ...(databaseUrl === undefined ? {} : { DATABASE_URL: databaseUrl }),
    // Several servers share the one test cluster: fewer connections each than the default.
    ...(databaseUrl === undefined ? {} : { DATABASE_POOL_SIZE: '4' }),
    // Empty is unset: a token or origins in the caller's environment do not leak in.
    API_TOKEN: apiToken ?? '',
    CORS_ORIGINS: corsOrigins.join(','),
    ...env,
  }
  let server: ServerProcess
  try {
    server = await launch({ command, args, cwd: SERVER_DIR, env: settings, timeoutMs: 60_000 })
  } catch (error) {
    if (options.dir === undefined) remove()
    throw error
  }
  const headers: Record<string, string> = settings.API_TOKEN
    ? { authorization: `Bearer ${settings.API_TOKEN}` }
    : {}
  const stop = async () => {
    await server.stop()
  }
  return {
    url: server.url,
    port: server.port,
    dir,
    place: { dir, port: server.port },
    process: server,
    async count() {
      const response = await fetch(`${server.url}/tasks?limit=1&order=desc`, { headers })
      const [newest] = (await response.json()) as { id: number }[]
      return newest?.id ?? 0
    },
    async seq() {
      const response = await fetch(`${server.url}/tasks?limit=0`, { headers })
      await response.body?.cancel()
      return Number(response.headers.get('tasklane-seq'))
    },
    stop,
    async close() {
      await stop()
      remove()
    },
  }
}
