// The SQLite writer thread: a durable commit waits for fsync, and here that wait blocks
// only this thread, not the server's event loop. It runs the same write algorithm as
// every backend (write-plan.ts); the build ships it as dist/sqlite-worker.js.
import { parentPort, workerData } from 'node:worker_threads'
import { assertSameFile, type FileIdentity } from './file-identity.js'
import { SqliteBatchWriter } from './sqlite-batch-writer.js'
import { openConnection } from './sqlite-connection.js'
import type { WriterReply, WriterRequest } from './writer-thread.js'

/** WAL pages past which a commit checkpoints (SQLite's default: 1,000). */
const WAL_PAGES = 10_000

const { filename, identity } = workerData as { filename: string; identity: FileIdentity }

// Never open (and so create) a file other than the one the server started on: a new,
// empty database at the same path would hand out ids that were given already.
assertSameFile(filename, identity)
const db = openConnection(filename, { mustExist: true })
// SQLite copies the WAL back into the database file (a checkpoint) inside the commit that
// takes it past this many pages, and that commit waits for it. Changes rewrite pages all
// over the table, so at SQLite's default (1,000 pages) a checkpoint came every few dozen
// batches of PATCHes and held them for 10 to 20 ms. A longer WAL (about 40 MiB at most)
// checkpoints a tenth as often, and a page changed many times in it is copied back once.
db.pragma(`wal_autocheckpoint = ${WAL_PAGES}`)
const writer = new SqliteBatchWriter(db)
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

type Batch = Extract<WriterRequest, { items: unknown }>

type Access = Extract<WriterRequest, { access: unknown }>

/**
 * Batches, access writes and probes received since the last commit began: the next commit
 * takes every batch; each access write and probe follows as a transaction of its own.
 */
let batches: Batch[] = []
let accesses: Access[] = []
let probes: number[] = []
let scheduled = false

function replyError(id: number, error: { message?: unknown; code?: unknown }): void {
  port.postMessage({
    id,
    error: String(error?.message ?? error),
    code: typeof error?.code === 'string' ? error.code : undefined,
  } satisfies WriterReply)
}

/**
 * Group commit, leader and followers: a commit takes every batch that has arrived when it
 * begins, as one transaction (one fsync); batches that arrive while it writes wait in the
 * port and go into the next, which begins the moment this one ends. Each batch is answered
 * with its own outcomes. Probes follow, each a transaction of its own.
 */
async function commitWaiting(): Promise<void> {
  scheduled = false
  const taken = batches
  const accessing = accesses
  const probing = probes
  batches = []
  accesses = []
  probes = []
  if (taken.length > 0) {
    const items = taken.flatMap((batch) => batch.items)
    // The latest batch's time: a key's expiry judged a few milliseconds later, never earlier.
    const now = Math.max(...taken.map((batch) => batch.now))
    const notBefore = Math.max(...taken.map((batch) => batch.notBefore))
    try {
      const outcomes = await onTheFile(() => writer.commit(items, now, notBefore))
      let at = 0
      for (const { id, items: mine } of taken) {
        const reply: WriterReply = { id, outcomes: outcomes.slice(at, at + mine.length) }
        port.postMessage(reply)
        at += mine.length
      }
    } catch (error) {
      for (const { id } of taken) replyError(id, error as { message?: unknown })
    }
  }
  for (const { id, access, now, notBefore } of accessing) {
    try {
      const written = await onTheFile(() => writer.access(access, now, notBefore))
      port.postMessage({ id, access: written } satisfies WriterReply)
    } catch (error) {
      replyError(id, error as { message?: unknown })
    }
  }
  for (const id of probing) {
    try {
      await onTheFile(() => writer.probe())
      port.postMessage({ id, outcomes: [] } satisfies WriterReply)
    } catch (error) {
      replyError(id, error as { message?: unknown })
    }
  }
}

port.on('message', (message: WriterRequest) => {
  if ('close' in message) {
    // What has arrived is committed before the connection closes.
    void commitWaiting().then(() => {
      db.close()
      port.close()
    })
    return
  }
  if ('probe' in message) probes.push(message.id)
  else if ('access' in message) accesses.push(message)
  else batches.push(message)
  if (scheduled) return
  scheduled = true
  // After every message already in the port: they all join this commit.
  setImmediate(() => void commitWaiting())
})
