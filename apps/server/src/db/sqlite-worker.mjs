// The SQLite write connection, on a thread of its own: a durable commit waits for
// fsync, and here that wait blocks only this thread, not the server's event loop.
// Plain JavaScript so that Node loads it as is, from src/ in tests and from dist/.
import { parentPort, workerData } from 'node:worker_threads'
import SQLite from 'better-sqlite3'

const db = new SQLite(workerData.filename)
db.pragma('journal_mode = WAL')
db.pragma('synchronous = FULL')
db.pragma('busy_timeout = 5000')

const findKey = db.prepare(
  'SELECT fingerprint, task_id AS taskId FROM idempotency_keys WHERE key = ? AND created_at >= ?',
)
const findTask = db.prepare('SELECT id, name, tag FROM tasks WHERE id = ?')
const insertTask = db.prepare('INSERT INTO tasks (name, tag) VALUES (?, ?) RETURNING id')
const saveKey = db.prepare(
  `INSERT INTO idempotency_keys (key, fingerprint, task_id, created_at) VALUES (?, ?, ?, ?)
   ON CONFLICT (key) DO UPDATE SET fingerprint = excluded.fingerprint,
     task_id = excluded.task_id, created_at = excluded.created_at`,
)

/** @param {{ id: number, name: string, tag: string | null }} row */
const toTask = (row) =>
  row.tag === null ? { id: row.id, name: row.name } : { id: row.id, name: row.name, tag: row.tag }

// The same steps as applyWrites in tasks/repository.ts, on prepared statements.
const writeBatch = db.transaction((items, now, notBefore) =>
  items.map((item) => {
    const known = item.key === undefined ? undefined : findKey.get(item.key, notBefore)
    if (known) {
      const row = known.fingerprint === item.fingerprint && findTask.get(known.taskId)
      return row ? { task: toTask(row), replayed: true } : 'conflict'
    }
    const tag = item.tag ?? null
    const { id } = insertTask.get(item.name, tag)
    if (item.key !== undefined) saveKey.run(item.key, item.fingerprint, id, now)
    return { task: toTask({ id, name: item.name, tag }), replayed: false }
  }),
)

parentPort?.on('message', (message) => {
  if (message.close) {
    db.close()
    parentPort?.close()
    return
  }
  try {
    // IMMEDIATE: take the write lock when the transaction begins, not halfway through.
    const outcomes = writeBatch.immediate(message.items, message.now, message.notBefore)
    parentPort?.postMessage({ id: message.id, outcomes })
  } catch (error) {
    parentPort?.postMessage({ id: message.id, error: String(error), code: error?.code })
  }
})
