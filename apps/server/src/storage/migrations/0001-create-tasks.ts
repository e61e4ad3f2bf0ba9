// biome-ignore-all lint/suspicious/noExplicitAny: migrations run against whatever schema the database has.
import type { Kysely, Migration } from 'kysely'
import type { Dialect } from './dialect.js'

/** The tasks table: ids assigned by the database, never reused. */
export const createTasks = (dialect: Dialect): Migration => ({
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('tasks')
      // AUTOINCREMENT: SQLite never reuses an id, even one whose row was deleted.
      .addColumn('id', dialect === 'sqlite' ? 'integer' : 'bigint', (column) =>
        dialect === 'sqlite'
          ? column.primaryKey().autoIncrement()
          : column.primaryKey().generatedAlwaysAsIdentity(),
      )
      .addColumn('name', 'text', (column) => column.notNull())
      .addColumn('tag', 'text')
      .execute()
    // Keeps `?tag=…&after=…` an index range scan, whatever the table's size.
    await db.schema.createIndex('tasks_tag_id').on('tasks').columns(['tag', 'id']).execute()
  },
})
