import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { launch } from '@tasklane/testing/launch'

const SERVER_DIR = resolve(import.meta.dirname, '../../../server')

/** A running server and how to reach it. */
export interface PageServer {
  /** `http://127.0.0.1:NNNN`: the page is at `${url}/`. */
  readonly url: string
  /** Where its database is. */
  readonly dir: string
  /** Stops it and removes its tasks. */
  close(): Promise<void>
  /** Stops it and keeps its tasks, for a server started again on `dir`. */
  stop(): Promise<void>
}

/** How to start a server: with an API token; on this port; on the database of an earlier one. */
export interface StartOptions {
  readonly apiToken?: string
  readonly port?: number
  readonly dir?: string
}

/**
 * A real tasklane server, a process of its own from the server's sources, with its own
 * SQLite file, serving the page that the global setup built (apps/web/dist); with an API
 * token if one is given.
 */
export async function startServer({
  apiToken,
  port,
  dir: given,
}: StartOptions = {}): Promise<PageServer> {
  const dir = given ?? mkdtempSync(join(tmpdir(), 'tasklane-web-'))
  const server = await launch({
    args: ['--import', 'tsx', '--conditions=@tasklane/source', 'src/main.ts'],
    cwd: SERVER_DIR,
    env: {
      PORT: String(port ?? 0),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      DATABASE_URL: join(dir, 'tasks.db'),
      API_TOKEN: apiToken ?? '',
      // The machine is shared with other test files: never shed the page's requests.
      MAX_EVENT_LOOP_DELAY_MS: '0',
    },
    timeoutMs: 60_000,
  })
  return {
    url: server.url,
    dir,
    async stop() {
      await server.stop()
    },
    async close() {
      await server.stop()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
