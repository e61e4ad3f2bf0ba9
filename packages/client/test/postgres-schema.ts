// A PostgreSQL schema of a test file's own, for the client's slow tests that run servers on
// PostgreSQL: its URL (search_path set), made before the servers start and dropped after.
import { randomBytes } from 'node:crypto'
import { systemHas } from '@tasklane/testing/requirements'
import pg from 'pg'
import { ensurePostgres, POSTGRES_URL } from '../../../apps/server/test/support/postgres.js'

// Without PostgreSQL: skipped with one loud line, or a failure under TASKLANE_REQUIRE_ALL=1.
const postgresProblem = await ensurePostgres()

/** Whether PostgreSQL is there to test against (else the suites using it are skipped). */
export const hasPostgres = systemHas(
  `PostgreSQL at ${POSTGRES_URL} (${postgresProblem})`,
  postgresProblem === undefined,
  'apt-get install postgresql, with trust auth and a "test" database on 127.0.0.1:5432, or set TASKLANE_TEST_POSTGRES_URL',
)

/** Runs one statement as the test database's owner. */
async function runSql(sql: string): Promise<void> {
  const db = new pg.Client({ connectionString: POSTGRES_URL })
  await db.connect()
  try {
    await db.query(sql)
  } finally {
    await db.end()
  }
}

/** A new schema named `<prefix>_<random>`: its DATABASE_URL, `create()` and `drop()`. */
export function postgresSchema(prefix: string) {
  const schema = `${prefix}_${randomBytes(6).toString('hex')}`
  const url = new URL(POSTGRES_URL)
  url.searchParams.set('options', `-c search_path=${schema}`)
  return {
    url: url.toString(),
    create: () => runSql(`create schema ${schema}`),
    drop: () => runSql(`drop schema if exists ${schema} cascade`),
  }
}
