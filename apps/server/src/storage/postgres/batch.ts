import { type Kysely, sql } from 'kysely'
import type { Schema } from '../schema.js'
import type { BatchStatements, KeyRecord, TaskRow } from '../write-batch.js'

/**
 * The batch's statements on PostgreSQL, one query each whatever the batch's size: arrays
 * travel as parameters (`= any($1)`, `unnest`), so each statement keeps one shape.
 */
export function postgresStatements(trx: Kysely<Schema>): BatchStatements {
  return {
    async findKeys(keys, notBefore) {
      const { rows } = await sql<KeyRecord>`
        select key, fingerprint, task_id as "taskId" from idempotency_keys
        where key = any(${keys}::text[]) and created_at >= ${notBefore}`.execute(trx)
      return rows
    },
    async findTasks(ids) {
      const { rows } = await sql<TaskRow>`
        select id, name, tag from tasks where id = any(${ids}::bigint[])`.execute(trx)
      return rows
    },
    // The ids are drawn first and the k-th smallest given to the k-th task, so the pairing
    // of ids and tasks holds by construction, not by the order RETURNING happens to use.
    async insertTasks(tasks) {
      const { rows } = await sql<{ id: number }>`
        with input as (
          select name, tag, ordinality
          from unnest(${tasks.map((t) => t.name)}::text[], ${tasks.map((t) => t.tag)}::text[])
            with ordinality as input(name, tag, ordinality)
        ),
        drawn as (
          select nextval(pg_get_serial_sequence('tasks', 'id')) as id from input
        ),
        ranked as (
          select id, row_number() over (order by id) as ordinality from drawn
        )
        insert into tasks (id, name, tag) overriding system value
        select ranked.id, input.name, input.tag from input join ranked using (ordinality)
        returning id`.execute(trx)
      return rows.map((row) => Number(row.id)).sort((a, b) => a - b)
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
