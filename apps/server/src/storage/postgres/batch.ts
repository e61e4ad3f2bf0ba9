import { type Kysely, sql } from 'kysely'
import type { Schema } from '../schema.js'
import type { BatchStatements, TaskRow } from '../write-batch.js'

/** What tells a task's row apart: its name and tag (U+0000 occurs in neither). */
const identity = (task: { name: string; tag: string | null }) =>
  `${task.name}\u0000${task.tag ?? '\u0000'}`

/**
 * The batch's statements on PostgreSQL, one query each whatever the batch's size: arrays
 * travel as parameters (`= any($1)`, `unnest`), so each statement keeps one shape. The
 * insert also notifies `channel` of the batch's largest id, which PostgreSQL delivers to
 * every listener when (and only if) the transaction commits.
 */
export function postgresStatements(trx: Kysely<Schema>, channel: string): BatchStatements {
  return {
    async findKeys(keys, notBefore) {
      const { rows } = await sql<{ key: string; fingerprint: string } & TaskRow>`
        select k.key, k.fingerprint, t.id, t.name, t.tag
        from idempotency_keys k join tasks t on t.id = k.task_id
        where k.key = any(${keys}::text[]) and k.created_at >= ${notBefore}`.execute(trx)
      return rows.map(({ key, fingerprint, ...task }) => ({ key, fingerprint, task }))
    },
    // RETURNING's order is not promised, so rows are paired with tasks by what they hold:
    // each task gets the smallest unclaimed id of a row with its own name and tag. Tasks
    // that are alike may swap ids, which no one can tell apart: they commit together.
    // The notification rides on the same statement (no round trip of its own); should the
    // planner evaluate it more than once, PostgreSQL delivers identical ones once.
    async insertTasks(tasks) {
      const { rows } = await sql<TaskRow>`
        with inserted as (
          insert into tasks (name, tag)
          select name, tag
          from unnest(${tasks.map((t) => t.name)}::text[], ${tasks.map((t) => t.tag)}::text[])
            as input(name, tag)
          returning id, name, tag
        )
        select id, name, tag from inserted
        cross join (select pg_notify(${channel}, max(id)::text) from inserted) as notified`.execute(
        trx,
      )
      const ids = new Map<string, number[]>()
      for (const row of rows.sort((a, b) => Number(a.id) - Number(b.id))) {
        const same = ids.get(identity(row)) ?? []
        same.push(Number(row.id))
        ids.set(identity(row), same)
      }
      return tasks.map((task) => ids.get(identity(task))?.shift() ?? Number.NaN)
    },
    async saveKeys(keys, createdAt) {
      // An expired key is taken over by its new task.
      await sql`
        insert into idempotency_keys (key, fingerprint, task_id, created_at)
        select key, fingerprint, task_id, ${createdAt}::bigint
        from unnest(${keys.map((k) => k.key)}::text[], ${keys.map((k) => k.fingerprint)}::text[],
          ${keys.map((k) => k.taskId)}::bigint[]) as input(key, fingerprint, task_id)
        on conflict (key) do update set fingerprint = excluded.fingerprint,
          task_id = excluded.task_id, created_at = excluded.created_at`.execute(trx)
    },
  }
}
