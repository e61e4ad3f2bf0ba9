import type { Generated } from 'kysely'

/** A row's state: a task's status, or `deleted` once it is gone (its row stays as a tombstone). */
export type RowStatus = 'open' | 'done' | 'deleted'

/**
 * Row of the `tasks` table. A deleted task keeps its row (id, version, seq) as the change
 * feed's tombstone, with its name emptied and its tag removed. `seq` is the change sequence
 * number of the row's latest change; `prev_*` describe the row as it was before that change
 * (`prev_seq` 0: the change created it), so the feed can tell a filtered view whether a
 * task entered or left it.
 */
export interface TasksTable {
  id: Generated<number>
  name: string
  tag: string | null
  status: RowStatus
  version: number
  /** Milliseconds since the epoch. */
  created_at: number
  updated_at: number
  seq: number
  prev_seq: number
  prev_tag: string | null
  prev_status: RowStatus | null
}

/**
 * Row of `idempotency_keys`: a key, the digest of the request it came with (method, task and
 * body), and the response it got: the task's id, the seq of the change, and the task as it
 * was answered without its id (JSON; null for a delete, which answers no body).
 */
export interface IdempotencyKeysTable {
  key: string
  fingerprint: string
  task_id: number
  created_at: number
  seq: number
  response: string | null
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
