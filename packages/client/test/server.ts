import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildApp, openStorage } from '@tasklane/server'

/** A real tasklane server on 127.0.0.1, port 0, with its own SQLite file; CORS if asked. */
export async function startServer({ corsOrigins }: { corsOrigins?: string[] } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'tasklane-client-'))
  const storage = await openStorage({ kind: 'sqlite', filename: join(dir, 'tasks.db') })
  const app = await buildApp({ storage, settings: corsOrigins && { corsOrigins } })
  await app.listen({ port: 0, host: '127.0.0.1' })
  const address = app.server.address()
  if (address === null || typeof address === 'string') throw new Error('no TCP address')
  return {
    url: `http://127.0.0.1:${address.port}`,
    async close() {
      await app.close()
      await storage.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
