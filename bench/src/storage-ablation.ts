/**
 * What the ablation (`--ablation`) takes out of a seeded SQLite file to price the storage's
 * own features, the way it leaves plugins out to price the per-request ones: the built
 * server runs unchanged, on a schema without the part. Every write still runs the same
 * statements; they land on a view that keeps nothing, or on no index.
 */
import SQLite from 'better-sqlite3'

export const STORAGE_ABLATIONS = {
  search: {
    label: 'the search index (FTS5 trigram)',
    sql: `drop table tasks_search;
      create view tasks_search (rowid, tasks_search, search) as select 0, '', '' where 0;
      create trigger tasks_search_not_kept instead of insert on tasks_search begin select 1; end`,
  },
  history: {
    label: 'history (task_history)',
    sql: `drop table task_history;
      create view task_history (seq, task_id, list_id, at, actor, type, changes, task)
        as select 0, 0, 0, 0, '', '', '', '' where 0;
      create trigger task_history_not_kept instead of insert on task_history begin select 1; end;
      create trigger task_history_not_pruned instead of delete on task_history begin select 1; end`,
  },
  'planning-indexes': {
    label: 'the sorts’ indexes (due, priority, updated)',
    sql: 'drop index tasks_due_key; drop index tasks_priority; drop index tasks_updated',
  },
} as const

export type StorageAblation = keyof typeof STORAGE_ABLATIONS

/** Takes `parts` out of the SQLite file's schema (a server may be running on it). */
export function ablateSchema(filename: string, parts: readonly StorageAblation[]): void {
  const db = new SQLite(filename)
  try {
    db.pragma('busy_timeout = 10000')
    db.exec(
      `begin immediate; ${parts.map((part) => STORAGE_ABLATIONS[part].sql).join(';\n')}; commit`,
    )
  } finally {
    db.close()
  }
}
