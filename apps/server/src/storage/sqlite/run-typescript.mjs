// Tests run the server from its TypeScript sources, and a worker thread cannot load
// TypeScript by itself: this starts the writer thread's .ts entry through tsx. The build
// does not need it (dist/sqlite-worker.js is JavaScript).
import { workerData } from 'node:worker_threads'
import { register } from 'tsx/esm/api'

register()
await import(workerData.entry)
