/**
 * The write path's health check: a real write, one row updated in its own transaction,
 * on every backend. A trivial read (`select 1`) answers on a full disk, a dead writer
 * thread or a database file removed while open; only a write shows that writes commit.
 * The table has one row (migration 0004); the statement takes no parameters, so its
 * text is the same for SQLite and PostgreSQL.
 */
export const WRITE_PROBE_SQL =
  'INSERT INTO write_probe (id, probes) VALUES (1, 1) ON CONFLICT (id) DO UPDATE SET probes = write_probe.probes + 1'
