import type { TestProject } from 'vitest/node'
import { ensurePgBouncer, startPgBouncer, stopAllPgBouncers } from './pgbouncer.js'

declare module 'vitest' {
  export interface ProvidedContext {
    /** The port of the PgBouncer (transaction mode) that server-pgbouncer's test databases go through. */
    pgbouncerPort: number
  }
}

/**
 * Starts the PgBouncer that every test database of the server-pgbouncer project is reached
 * through (test-database.ts), once per run, and stops it when the run ends. Installs
 * Debian's package first when it is missing and this is root, as .ci/run does.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (!ensurePgBouncer()) {
    throw new Error(
      'The server-pgbouncer tests need PgBouncer (/usr/sbin/pgbouncer): apt-get install pgbouncer',
    )
  }
  const pgbouncer = await startPgBouncer()
  project.provide('pgbouncerPort', pgbouncer.port)
  return stopAllPgBouncers
}
