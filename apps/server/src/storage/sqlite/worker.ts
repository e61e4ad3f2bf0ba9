// The SQLite writer thread: a durable commit waits for fsync, and here that wait blocks
// only this thread, not the server's event loop. It runs the same write algorithm as
// every backend (write-batch.ts); the build ships it as dist/sqlite-worker.js.
import { parentPort, workerData } from 'node:worker_threads'
import { createBatchWriter } from './batch.js'
import { openConnection } from './connection.js'
import { assertSameFile, type FileIdentity } from './file-identity.js'
import type { WriterReply, WriterRequest } from './writer.js'

const { filename, identity } = workerData as { filename: string; identity: FileIdentity }

// Never open (and so create) a file other than the one the server started on: a new,
// empty database at the same path would hand out ids that were given already.
assertSameFile(filename, identity)
const db = openConnection(filename)
const writer = createBatchWriter(db)
const port = parentPort as NonNullable<typeof parentPort>

/**
 * `work` on the database, checked before and after: a write that reached a file no
 * longer at the configured path (removed, replaced) is lost at the next start, so it
 * must fail rather than be acknowledged.
 */
async function onTheFile<T>(work: () => Promise<T>): Promise<T> {
  assertSameFile(filename, identity)
  const result = await work()
  assertSameFile(filename, identity)
  return result
}

port.on('message', (message: WriterRequest) => {
  if ('close' in message) {
    db.close()
    port.close()
    return
  }
  const { id } = message
  const work =
    'probe' in message
      ? onTheFile(writer.probe).then(() => [])
      : onTheFile(() => writer.commit(message.items, message.now, message.notBefore))
  work.then(
    (outcomes) => port.postMessage({ id, outcomes } satisfies WriterReply),
    (error: { message?: unknown; code?: unknown }) =>
      port.postMessage({
        id,
        error: String(error?.message ?? error),
        code: typeof error?.code === 'string' ? error.code : undefined,
      } satisfies WriterReply),
  )
})
