import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { DatabaseUnavailableError } from '../domain/domain-errors.js'
import { withDeadline } from '../storage/deadline.js'
import type { Storage } from '../storage/open-storage.js'

/** False unless `check` resolves true within `ms`. */
const within = (check: Promise<boolean>, ms: number): Promise<boolean> =>
  withDeadline(check, ms).catch(() => false)

/**
 * `/health/live`: the process answers. `/health/ready` (and `/health`): and its database
 * answers a read and commits a write, both within `timeoutMs`; 503 otherwise. What goes
 * wrong in the storage outside any request (its writer thread died, came back) is logged
 * here.
 */
export default fp(
  async function health(
    app: FastifyInstance,
    { storage, timeoutMs }: { storage: Storage; timeoutMs: number },
  ) {
    const stop = storage.onEvent(({ level, message, err }) => app.log[level]({ err }, message))
    app.addHook('onClose', async () => stop())
    app.get('/health/live', { schema: { hide: true } }, async () => ({ status: 'ok' }))
    const ready = async () => {
      const [reads, writes] = await Promise.all([
        within(storage.ping(), timeoutMs),
        within(storage.writable(), timeoutMs),
      ])
      if (!reads || !writes) {
        const failed = [reads ? [] : 'answer a read', writes ? [] : 'commit a probe write'].flat()
        throw new DatabaseUnavailableError({
          cause: new Error(
            `Not ready: the database did not ${failed.join(' or ')} within ${timeoutMs} ms.`,
          ),
        })
      }
      return { status: 'ok' }
    }
    app.get('/health/ready', { schema: { hide: true } }, ready)
    // Where probes look first when nobody told them otherwise: the same answer as ready.
    app.get('/health', { schema: { hide: true } }, ready)
  },
  { name: 'health' },
)
