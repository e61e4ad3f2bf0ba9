import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { launch } from '@tasklane/testing/launch'
import { ROOT } from '@tasklane/testing/packages'

/** A tasklane server for the CLI to talk to. */
export interface CliTestServer {
  readonly url: string
  /** How many tasks it holds: the newest id, on a server that started empty. */
  count(): Promise<number>
  /** The newest change's seq (Tasklane-Seq): `watch --after` it prints every later change. */
  seq(): Promise<number>
  close(): Promise<void>
}

/**
 * A real server, a process of its own from the server's sources, on 127.0.0.1 and a free
 * port, with an empty SQLite file of its own; `env` adds settings (API_TOKEN, ...).
 */
export async function startServer(env: NodeJS.ProcessEnv = {}): Promise<CliTestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'tasklane-cli-'))
  const server = await launch({
    args: ['--import', 'tsx', '--conditions=@tasklane/source', 'src/main.ts'],
    cwd: join(ROOT, 'apps/server'),
    env: {
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      DATABASE_URL: join(dir, 'tasks.db'),
      // These tests load both cores with CLI processes: never shed their requests.
      MAX_EVENT_LOOP_DELAY_MS: '0',
      ...env,
    },
    timeoutMs: 60_000,
  })
  const headers: Record<string, string> =
    env.API_TOKEN === undefined ? {} : { authorization: `Bearer ${env.API_TOKEN}` }
  return {
    url: server.url,
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
    async close() {
      await server.stop()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
