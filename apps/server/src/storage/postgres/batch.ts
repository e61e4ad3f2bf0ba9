import { type Kysely, sql } from 'kysely'
import type { Schema } from '../schema.js'
import type { BatchStatements, TaskRow } from '../write-batch.js'

/**
 * The batch's statements on PostgreSQL, one query each whatever the batch's size: arrays
 * travel as parameters (`= any($1)`, `unnest`), so each statement keeps one shape.
 */
export function postgresStatements(trx: Kysely<Schema>): BatchStatements {
  return {
    async findKeys(keys, notBefore) {
      const { rows } = await sql<{ key: string; fingerprint: string } & TaskRow>`
        select k.key, k.fingerprint, t.id, t.name, t.tag
        from idempotency_keys k join tasks t on t.id = k.task_id
        where k.key = any(${keys}::text[]) and k.created_at >= ${notBefore}`.execute(trx)
      return rows.map(({ key, fingerprint, ...task }) => ({ key, fingerprint, task }))
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
