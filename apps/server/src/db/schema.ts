import type { Generated } from 'kysely'

/** Row of the `tasks` table; `tag` is NULL when the task has none. */
export interface TaskRow {
  id: Generated<number>
  name: string
  tag: string | null
}

/** The database as Kysely sees it. */
export interface Schema {
  tasks: TaskRow
}
