import type { Generated } from 'kysely'

/** Row of the `tasks` table; `tag` is NULL when the task has none. */
export interface TasksTable {
  id: Generated<number>
  name: string
  tag: string | null
}

/** Row of `idempotency_keys`: which task a key created, and a digest of the body it came with. */
export interface IdempotencyKeysTable {
  key: string
  fingerprint: string
  task_id: number
  created_at: number
}

/** Row of `write_probe`: the one row readiness rewrites to learn that writes commit. */
export interface WriteProbeTable {
  id: number
  probes: number
}

/** The database as Kysely sees it. */
export interface Schema {
  tasks: TasksTable
  idempotency_keys: IdempotencyKeysTable
  write_probe: WriteProbeTable
}
