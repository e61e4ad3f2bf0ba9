import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { DatabaseUnavailableError } from '../errors.js'
import type { Storage } from '../storage/index.js'

/** `/health/live`: the process answers. `/health/ready`: and its database does too. */
export default fp(
  async function health(app: FastifyInstance, { storage }: { storage: Storage }) {
    app.get('/health/live', { schema: { hide: true } }, async () => ({ status: 'ok' }))
    app.get('/health/ready', { schema: { hide: true } }, async () => {
      if (!(await storage.ping())) throw new DatabaseUnavailableError()
      return { status: 'ok' }
    })
  },
  { name: 'health' },
)
