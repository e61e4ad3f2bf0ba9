// The SQLite writer thread: a durable commit waits for fsync, and here that wait blocks
// only this thread, not the server's event loop. It runs the same write algorithm as
// every backend (write-batch.ts); the build ships it as dist/sqlite-worker.js.
import { parentPort, workerData } from 'node:worker_threads'
import { createBatchWriter } from './batch.js'
import { openConnection } from './connection.js'
import type { WriterReply, WriterRequest } from './writer.js'

const db = openConnection((workerData as { filename: string }).filename)
const commitBatch = createBatchWriter(db)
const port = parentPort as NonNullable<typeof parentPort>

port.on('message', (message: WriterRequest) => {
  if ('close' in message) {
    db.close()
    port.close()
    return
  }
  const { id, items, now, notBefore } = message
  commitBatch(items, now, notBefore).then(
    (outcomes) => port.postMessage({ id, outcomes } satisfies WriterReply),
    (error: { message?: unknown; code?: unknown }) =>
      port.postMessage({
        id,
        error: String(error?.message ?? error),
        code: typeof error?.code === 'string' ? error.code : undefined,
      } satisfies WriterReply),
  )
})
