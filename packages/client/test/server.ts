import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { launch } from '@tasklane/testing/launch'

const SERVER_DIR = resolve(import.meta.dirname, '../../../apps/server')

/**
 * The Node.js that runs the server: this one, or TASKLANE_TEST_SERVER_NODE. CI runs the
 * client on Node 24 against a server on Node 22, the server's SQLite driver
 * (better-sqlite3 12) aborting on Node 24 (see the README).
 */
const SERVER_NODE = process.env.TASKLANE_TEST_SERVER_NODE || process.execPath

/** Where a server keeps its tasks and listens, to start another on the same (a restart). */
export interface ServerPlace {
  readonly dir: string
  readonly port: number
}

/**
 * A real tasklane server, a process of its own from the server's sources, on 127.0.0.1,
 * with its own SQLite file (or the PostgreSQL database of `databaseUrl`); CORS for these origins if given. `restart`: the directory and
 * port of a stopped one, to start it again as it was.
 */
export async function startServer({
  corsOrigins = [],
  restart,
  databaseUrl,
}: {
  corsOrigins?: string[]
  restart?: ServerPlace
  /** A PostgreSQL URL (its search_path a schema of the test's) instead of the SQLite file. */
  databaseUrl?: string
} = {}) {
  const dir = restart?.dir ?? mkdtempSync(join(tmpdir(), 'tasklane-client-'))
  const server = await launch({
    command: SERVER_NODE,
    args: ['--import', 'tsx', '--conditions=@tasklane/source', 'src/main.ts'],
    cwd: SERVER_DIR,
    env: {
      PORT: String(restart?.port ?? 0),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      DATABASE_URL: databaseUrl ?? join(dir, 'tasks.db'),
      DATABASE_POOL_SIZE: '4',
      CORS_ORIGINS: corsOrigins.join(','),
      // The client's tests share both cores with other test files: never shed their requests.
      MAX_EVENT_LOOP_DELAY_MS: '0',
    },
    timeoutMs: 60_000,
  })
  /** Stops the server (SIGTERM: it drains and exits) and keeps its tasks, for `restart`. */
  const stop = async () => {
    await server.stop()
  }
  return {
    url: server.url,
    place: { dir, port: server.port } satisfies ServerPlace,
    stop,
    async close() {
      await stop()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
