// Only what reads the command line is imported up front: the app, the storage and their
// dependencies load after tracing has started, if it is to start (see tracing.ts).
import { newDatabasePaths, removeNewDatabase, unwritableDatabase } from './database-file.js'
import { ConfigError } from './settings/config-error.js'
import { helpText } from './settings/help.js'
import { parseCommandLine } from './settings/parse.js'
import { printable } from './settings/printable.js'
import { StorageOpenError } from './storage/open-error.js'
import { version } from './version.js'

/** Longest a graceful shutdown may take before the connections still open are cut. */
const SHUTDOWN_GRACE_MS = 8_000

/** Whatever happens, the process is gone this long after SIGTERM (the promise is 10 s). */
const HARD_EXIT_MS = 9_500

/**
 * Longest the database connections may take to close once the requests are done: a
 * database that does not answer (a stalled network) would never acknowledge the goodbye.
 */
const STORAGE_CLOSE_MS = 2_000

/** The process: settings → storage → app → listen; on SIGTERM or SIGINT, drain and close. */
async function main(): Promise<void> {
  const invocation = parseCommandLine()
  if (invocation.command === 'help') return void process.stdout.write(helpText())
  if (invocation.command === 'version') return void process.stdout.write(`${version}\n`)
  const { settings } = invocation

  // Tracing costs nothing unless configured: its module is not even loaded.
  const tracing = settings.otelExporterOtlpEndpoint
    ? await (await import('./tracing.js')).startTracing(settings.otelExporterOtlpEndpoint, version)
    : undefined
  const { openStorage } = await import('./storage/open-storage.js')
  const { buildApp } = await import('./app.js')

  if (settings.storage.kind === 'sqlite') {
    const unwritable = unwritableDatabase(settings.storage.filename)
    if (unwritable) throw new StorageOpenError(settings.storage, unwritable)
  }
  // A path that names no file yet: a new, empty database is made there (say so, in case
  // the server was started from another directory than meant), and taken away again if
  // the server cannot listen.
  const created =
    settings.storage.kind === 'sqlite' ? newDatabasePaths(settings.storage.filename) : []
  const creating = created.length > 0
  const storage = await openStorage(settings.storage)
  const { logDestination } = await import('./log-destination.js')
  const stream = await logDestination(settings.logFormat)
  const app = await buildApp({ storage, settings, logger: { level: settings.logLevel, stream } })
  app.log.info(
    { version, settings: printable(settings), maxConnections: app.server.maxConnections },
    'starting',
  )
  const tasks = await storage.countTasks()
  try {
    await app.listen({ port: settings.port, host: settings.host })
  } catch (error) {
    await app.close()
    await storage.close()
    removeNewDatabase(created)
    throw listenError(error, settings.host, settings.port)
  }
  app.log.info(
    { tasks },
    creating
      ? 'created a new, empty database'
      : `opened a database of ${tasks} task${tasks === 1 ? '' : 's'}`,
  )

  let stopping = false
  const stop = async (signal: string) => {
    if (stopping) return
    stopping = true
    app.log.info({ signal }, 'shutting down')
    setTimeout(() => {
      app.log.warn('in-flight requests did not finish in time; closing their connections')
      app.server.closeAllConnections()
    }, SHUTDOWN_GRACE_MS).unref()
    setTimeout(() => {
      app.log.error('shutdown did not complete in time; exiting')
      process.exit(1)
    }, HARD_EXIT_MS).unref()
    try {
      // The storage closes only once every request has finished with it.
      await app.close()
      let timer: NodeJS.Timeout | undefined
      const closed = await Promise.race([
        storage.close().then(() => true),
        new Promise<false>((resolve) => {
          timer = setTimeout(() => resolve(false), STORAGE_CLOSE_MS)
        }),
      ])
      clearTimeout(timer)
      if (!closed) {
        app.log.error('the database did not close in time; exiting without it')
        await tracing?.stop()
        process.exit(1)
      }
      // The last spans, those of the requests that just finished, are sent before exiting.
      await tracing?.stop()
      process.exit(0)
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed')
      process.exit(1)
    }
  }
  // `on`, not `once`: Ctrl-C under `pnpm start` delivers SIGINT several times (the terminal
  // signals the whole process group and each pnpm forwards it); a repeat must not kill
  // the process in the middle of its drain, which the timers above bound anyway.
  process.on('SIGTERM', () => void stop('SIGTERM'))
  process.on('SIGINT', () => void stop('SIGINT'))
}

/** Why the server could not listen, as one line (a ConfigError: exit 2), or the error itself. */
function listenError(error: unknown, host: string, port: number): unknown {
  const other = port === 3000 ? 3001 : 3000
  const where = `${host.includes(':') ? `[${host}]` : host}:${port}`
  switch ((error as { code?: unknown }).code) {
    case 'EADDRINUSE':
      return new ConfigError(
        `Port ${port} is already in use on ${host}; pick another with PORT=${other} (or --port ${other}), or PORT=0 for any free port.`,
      )
    case 'EACCES':
      return new ConfigError(
        `Not allowed to listen on ${where} (ports below 1024 need privileges); pick another with PORT=${other}, or PORT=0 for any free port.`,
      )
    case 'EADDRNOTAVAIL':
      return new ConfigError(
        `Cannot listen on ${where}: HOST is not an address of this machine; use HOST=127.0.0.1 or 0.0.0.0.`,
      )
    default:
      return error
  }
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(error.message)
    process.exit(2)
  }
  // The database cannot be opened (a full disk, say): one line naming it and the cause.
  if (error instanceof StorageOpenError) {
    console.error(error.message)
    process.exit(1)
  }
  console.error(error)
  process.exit(1)
})
