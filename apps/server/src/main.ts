import { buildApp } from './app.js'
import { ConfigError, loadConfig } from './config.js'
import { openDatabase } from './db/database.js'

/** Longest a graceful shutdown may take before connections are cut. */
const SHUTDOWN_GRACE_MS = 9_000

async function main(): Promise<void> {
  const config = loadConfig()
  const database = await openDatabase(config.database)
  const app = await buildApp({
    database,
    logger: { level: config.logLevel },
    corsOrigins: config.corsOrigins,
    apiToken: config.apiToken,
    rateLimitPerMinute: config.rateLimitPerMinute,
    maxEventLoopDelayMs: config.maxEventLoopDelayMs,
    groupCommit: config.groupCommit,
  })
  await app.listen({ port: config.port, host: config.host })

  let stopping = false
  const stop = async (signal: string) => {
    if (stopping) return
    stopping = true
    app.log.info({ signal }, 'shutting down')
    const timer = setTimeout(() => {
      app.log.warn('in-flight requests did not finish in time; closing their connections')
      app.server.closeAllConnections()
    }, SHUTDOWN_GRACE_MS)
    timer.unref()
    try {
      // The database closes only once every request has finished with it.
      await app.close()
      await database.close()
      process.exit(0)
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed')
      process.exit(1)
    }
  }
  // `on`, not `once`: Ctrl-C under `pnpm start` delivers SIGINT several times (the terminal
  // signals the whole process group and each pnpm forwards it); a repeat must not kill
  // the process in the middle of its drain, which the grace timer above bounds anyway.
  process.on('SIGTERM', () => void stop('SIGTERM'))
  process.on('SIGINT', () => void stop('SIGINT'))
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error)
  process.exit(1)
})
