import type { PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely'
import type pg from 'pg'
import { inOwnTransaction } from './own-transaction.js'

/** Statements that would open a transaction spanning several of Kysely's calls. */
const OPENS_TRANSACTION = /^\s*(begin|start\s+transaction)\b/i

/**
 * A node-postgres pool as Kysely takes one, for connections through a transaction-mode
 * pooler: each statement Kysely sends runs as a transaction of its own under `settings`
 * (own-transaction.ts). Kysely's own transactions are refused rather than run with their
 * settings lost: the server's maintenance statements (purge, ping) need none.
 */
export class TransactionPool implements PostgresPool {
  readonly #pool: pg.Pool
  readonly #settings: readonly string[]

  constructor(pool: pg.Pool, settings: readonly string[]) {
    this.#pool = pool
    this.#settings = settings
  }

  async connect(): Promise<PostgresPoolClient> {
    const client = await this.#pool.connect()
    const settings = this.#settings
    return {
      async query<R>(sql: string, parameters: readonly unknown[]) {
        if (OPENS_TRANSACTION.test(sql)) {
          throw new Error('Transactions of several statements are not run through a pooler.')
        }
        const result = await inOwnTransaction(client, settings, sql, parameters)
        return result as unknown as PostgresQueryResult<R>
      },
      release: () => client.release(),
    } as PostgresPoolClient
  }

  end(): Promise<void> {
    return this.#pool.end()
  }
}
