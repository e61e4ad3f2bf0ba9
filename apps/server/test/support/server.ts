import type { FastifyInstance } from 'fastify'
import { type AppOptions, buildApp } from '../../src/app.js'
import { openStorage, type Storage } from '../../src/storage/open-storage.js'
import { createTestDatabase, type TestDatabase } from './test-database.js'

/**
 * The storage as a plain object of bound methods, so that a test can spread it and replace
 * some (`{ ...storage, write: … }`): a class instance's methods live on its prototype.
 */
export function plainStorage(storage: Storage): Storage {
  // Every method of the port: a new one that is missing here does not compile.
  const methods: Record<
    Exclude<
      keyof Storage,
      'kind' | 'batchesInFlight' | 'maxSnapshots' | 'descriptors' | 'access' | 'webhooks'
    >,
    true
  > = {
    findTask: true,
    readPage: true,
    openSnapshot: true,
    newestSeq: true,
    sequence: true,
    changesAfter: true,
    onCommitted: true,
    write: true,
    purgeIdempotencyKeys: true,
    taskHistory: true,
    pruneHistory: true,
    countTasks: true,
    ping: true,
    writable: true,
    onEvent: true,
    close: true,
  }
  const bound = Object.fromEntries(
    (Object.keys(methods) as (keyof typeof methods)[]).map((name) => [
      name,
      (storage[name] as (...args: never[]) => unknown).bind(storage),
    ]),
  )
  return {
    ...bound,
    kind: storage.kind,
    batchesInFlight: storage.batchesInFlight,
    maxSnapshots: storage.maxSnapshots,
    descriptors: storage.descriptors,
    access: storage.access,
    webhooks: storage.webhooks,
  } as unknown as Storage
}

/** A server listening on 127.0.0.1, on a database of the backend under test. */
export interface TestServer {
  readonly app: FastifyInstance
  /** The storage the app was given (before any `wrapStorage`). */
  readonly storage: Storage
  /** Base URL without a trailing slash, e.g. `http://127.0.0.1:41234`. */
  readonly url: string
  readonly port: number
  /** Where the tasks live, to reach them with SQL or to open them again. */
  readonly testDatabase: TestDatabase
  /** Closes the app and the storage, then drops the database if this server created it. */
  close(): Promise<void>
}

/** What a test may change about the server; everything else is as in production. */
export interface StartOptions extends Omit<AppOptions, 'storage' | 'logger'> {
  /** A database that already holds tasks (a restart); left in place on close. */
  readonly testDatabase?: TestDatabase
  /** Stands between the app and the storage (to count, hold or fail its calls). */
  readonly wrapStorage?: (storage: Storage) => Storage
  /** Receives the app's log, one parsed JSON line each, at info level; no log without it. */
  readonly log?: Record<string, unknown>[]
  /** The level of that log (default info). */
  readonly logLevel?: 'info' | 'debug'
}

/**
 * The one way the tests run the app in process: a fresh test database (unless one is
 * given), `openStorage`, `buildApp` with any settings that differ from the defaults, and
 * `listen` on an ephemeral port. Use `url` for real HTTP, `app.inject` for speed.
 */
export async function startServer({
  testDatabase: given,
  wrapStorage = (storage) => storage,
  log,
  logLevel = 'info',
  ...options
}: StartOptions = {}): Promise<TestServer> {
  const testDatabase = given ?? (await createTestDatabase())
  const storage = await openStorage(testDatabase.config)
  const app = await buildApp({
    ...options,
    // As for server processes (processes.ts): a test file's server shares its event loop
    // with the test and a loaded machine, and a stall there is not overload; shedding is
    // tested in overload.test.ts, which sets its own threshold.
    settings: { maxEventLoopDelayMs: 0, ...options.settings },
    storage: wrapStorage(plainStorage(storage)),
    logger: log && {
      level: logLevel,
      stream: { write: (line: string) => void log.push(JSON.parse(line)) },
    },
  })
  await app.listen({ port: 0, host: '127.0.0.1' })
  const address = app.server.address()
  if (address === null || typeof address === 'string') throw new Error('no TCP address')
  let closing: Promise<void> | undefined
  return {
    app,
    storage,
    url: `http://127.0.0.1:${address.port}`,
    port: address.port,
    testDatabase,
    close() {
      closing ??= (async () => {
        await app.close()
        await storage.close()
        if (given === undefined) await testDatabase.drop()
      })()
      return closing
    },
  }
}
