import {
  CompiledQuery,
  type DatabaseConnection,
  type DialectAdapter,
  type Driver,
  PostgresAdapter,
  PostgresDialect,
  type PostgresDialectConfig,
  PostgresDriver,
  type TransactionSettings,
} from 'kysely'

/**
 * The key of Kysely's own migration lock: an instance of an earlier release, which takes it
 * for its session, and this one exclude each other.
 */
const MIGRATION_LOCK = '3853314791062309107'

/**
 * First in the migrations' transaction: no statement timeout (a migration may rewrite every
 * task), a wait for the lock as long as Kysely allows one (an hour), then the lock.
 */
const TAKE_LOCK = [
  'set local statement_timeout = 0',
  "set local lock_timeout = '1h'",
  `select pg_advisory_xact_lock(${MIGRATION_LOCK})`,
]

/** Begins each transaction with the migration lock held. */
class LockingDriver extends PostgresDriver {
  override async beginTransaction(
    connection: DatabaseConnection,
    settings: TransactionSettings,
  ): Promise<void> {
    await super.beginTransaction(connection, settings)
    for (const statement of TAKE_LOCK) await connection.executeQuery(CompiledQuery.raw(statement))
  }
}

/** Kysely's lock around the transaction, left to the transaction itself. */
class TransactionLockAdapter extends PostgresAdapter {
  override async acquireMigrationLock(): Promise<void> {}
  override async releaseMigrationLock(): Promise<void> {}
}

/**
 * Kysely's PostgreSQL dialect for the Migrator, with its lock held by the migrations'
 * transaction (pg_advisory_xact_lock) rather than by the session: Kysely takes a session
 * lock before the transaction and releases it after, three statements that a
 * transaction-mode pooler may send to three server connections, leaving the lock held for
 * good on the first. Held by the transaction, it is released at commit or rollback, and the
 * Migrator reads which migrations ran only once it holds it.
 */
export class MigrationDialect extends PostgresDialect {
  readonly #config: PostgresDialectConfig

  constructor(config: PostgresDialectConfig) {
    super(config)
    this.#config = config
  }

  override createDriver(): Driver {
    return new LockingDriver(this.#config)
  }

  override createAdapter(): DialectAdapter {
    return new TransactionLockAdapter()
  }
}
