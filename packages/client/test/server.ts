import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildApp, openStorage } from '@tasklane/server'

/** Where a server keeps its tasks and listens, to start another on the same (a restart). */
export interface ServerPlace {
  readonly dir: string
  readonly port: number
}

/**
 * A real tasklane server on 127.0.0.1 with its own SQLite file; CORS if asked. `restart`:
 * the directory and port of a stopped one, to start it again as it was.
 */
export async function startServer({
  corsOrigins,
  restart,
}: {
  corsOrigins?: string[]
  restart?: ServerPlace
} = {}) {
  const dir = restart?.dir ?? mkdtempSync(join(tmpdir(), 'tasklane-client-'))
  const storage = await openStorage({ kind: 'sqlite', filename: join(dir, 'tasks.db') })
  const app = await buildApp({ storage, settings: corsOrigins && { corsOrigins } })
  await app.listen({ port: restart?.port ?? 0, host: '127.0.0.1' })
  const address = app.server.address()
  if (address === null || typeof address === 'string') throw new Error('no TCP address')
  const stop = async () => {
    await app.close()
    await storage.close()
  }
  return {
    url: `http://127.0.0.1:${address.port}`,
    place: { dir, port: address.port } satisfies ServerPlace,
    /** Stops the server and keeps its tasks, for `restart`. */
    stop,
    async close() {
      await stop()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
