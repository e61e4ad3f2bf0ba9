import type { List, Member } from '@tasklane/contract'
import { sql } from 'kysely'
import type { Access, Role } from '../domain/rights.js'
import type { TokenRecord } from './access-port.js'
import { toList } from './list-rows.js'
import { type Reads, sequence } from './reads.js'
import type { AtSeq } from './storage.js'
import type { Membership } from './write-port.js'

/** A row joined with where the sequence stood for its snapshot. */
type Sequenced<Row> = { newest: number; access: number } & { [K in keyof Row]: Row[K] | null }

interface ListRow {
  id: number
  name: string
  version: number
  created_at: number
  updated_at: number
}

interface TokenRow {
  id: number
  name: string
  principal: string
  role: Access
  lists: string | null
  created_at: number
  created_by: string
  expires_at: number | null
  revoked_at: number | null
}

const LIST_COLUMNS = ['id', 'name', 'version', 'created_at', 'updated_at'] as const
const TOKEN_COLUMNS = [
  'id',
  'name',
  'principal',
  'role',
  'lists',
  'created_at',
  'created_by',
  'expires_at',
  'revoked_at',
] as const

const toToken = (row: TokenRow): TokenRecord => ({
  id: Number(row.id),
  name: row.name,
  principal: row.principal,
  role: row.role,
  lists: row.lists === null ? undefined : (JSON.parse(row.lists) as number[]),
  createdAt: Number(row.created_at),
  createdBy: row.created_by,
  expiresAt: row.expires_at === null ? undefined : Number(row.expires_at),
  revoked: row.revoked_at !== null,
})

/** The rows that hold one (a left join's row of nulls holds none), and the sequence. */
function sequenced<Row, T>(
  rows: readonly Sequenced<Row>[],
  convert: (row: Row) => T,
  key = 'id' as keyof Row,
): AtSeq<T[]> {
  const first = rows[0]
  const values = rows.filter((row) => row[key] !== null).map((row) => convert(row as Row))
  return { value: values, seq: Number(first?.newest ?? 0), accessSeq: Number(first?.access ?? 0) }
}

/**
 * The reads of lists, members and tokens, on the same prepared shapes as the task reads:
 * each answers with where the sequence stood for it, so that rights read with it are
 * known to hold as long as the access seq is the same.
 */
export class AccessReads {
  readonly #reads: Reads

  constructor(reads: Reads) {
    this.#reads = reads
  }

  /** A principal's roles in every list it is a member of. */
  async memberships(principal: string): Promise<AtSeq<Membership[]>> {
    const shape = this.#reads.shapes.get('memberships', (db, value) =>
      db
        .selectFrom(sequence(db))
        .leftJoin('members as m', (join) => join.on('m.principal', '=', value('principal')))
        .select(['s.newest', 's.access', 'm.list_id', 'm.role'])
        .orderBy('m.list_id'),
    )
    const rows = await this.#reads.execute<Sequenced<{ list_id: number; role: Role }>>(shape, {
      principal,
    })
    return sequenced(
      rows,
      (row) => ({ principal, listId: Number(row.list_id), role: row.role }),
      'list_id',
    )
  }

  /** The seq of the first change to `principal`'s right to read a list after `after`, if any. */
  async firstAccessChange(principal: string, after: number): Promise<number | undefined> {
    const shape = this.#reads.shapes.get('first-access-change', (db, value) =>
      db
        .selectFrom('access_changes')
        .select((eb) => eb.fn.min('seq').as('seq'))
        .where('principal', '=', value('principal'))
        .where('seq', '>', value('after')),
    )
    const [row] = await this.#reads.execute<{ seq: number | null }>(shape, { principal, after })
    return row?.seq == null ? undefined : Number(row.seq)
  }

  /** The token whose secret has this digest, revoked or not, and the sequence. */
  async tokenByHash(hash: string): Promise<AtSeq<TokenRecord | undefined>> {
    const shape = this.#reads.shapes.get('token-by-hash', (db, value) =>
      db
        .selectFrom(sequence(db))
        .leftJoin('tokens as t', (join) => join.on('t.hash', '=', value('hash')))
        .select(['s.newest', 's.access', ...TOKEN_COLUMNS.map((c) => `t.${c}` as const)]),
    )
    const rows = await this.#reads.execute<Sequenced<TokenRow>>(shape, { hash })
    const { value, ...at } = sequenced(rows, toToken)
    return { value: value[0], ...at }
  }

  /** Tokens not revoked, of one principal or (undefined) of all, ascending by id. */
  async tokens(principal: string | undefined): Promise<TokenRecord[]> {
    const shape = this.#reads.shapes.get(`tokens:${principal === undefined}`, (db, value) => {
      let query = db.selectFrom('tokens').select(TOKEN_COLUMNS).where('revoked_at', 'is', null)
      if (principal !== undefined) query = query.where('principal', '=', value('principal'))
      return query.orderBy('id')
    })
    const rows = await this.#reads.execute<TokenRow>(shape, { principal })
    return rows.map(toToken)
  }

  /**
   * Up to `limit` live lists with ids above `after`, ascending: all of them, or (`only`)
   * those among the given ids; with the sequence.
   */
  async lists(
    only: readonly number[] | 'all',
    after: number,
    limit: number,
  ): Promise<AtSeq<List[]>> {
    const { dialect } = this.#reads.shapes
    const shape = this.#reads.shapes.get(`lists:${only === 'all'}`, (db, value) => {
      let lists = db
        .selectFrom('lists')
        .select(LIST_COLUMNS)
        .where('status', '=', sql.lit('live'))
        .where('id', '>', value('after'))
      if (only !== 'all') {
        const ids = value('lists')
        lists = lists.where(
          'id',
          'in',
          dialect === 'sqlite'
            ? sql<number>`(select value from json_each(${ids}))`
            : sql<number>`(select unnest(${ids}::bigint[]))`,
        )
      }
      return db
        .selectFrom(sequence(db))
        .leftJoin(lists.orderBy('id').limit(value('limit')).as('l'), (join) => join.onTrue())
        .select(['s.newest', 's.access', ...LIST_COLUMNS.map((c) => `l.${c}` as const)])
        .orderBy('l.id')
    })
    const ids = only === 'all' ? undefined : dialect === 'sqlite' ? JSON.stringify(only) : only
    const rows = await this.#reads.execute<Sequenced<ListRow>>(shape, { after, limit, lists: ids })
    return sequenced(rows, toList)
  }

  /** The live list with this id, and the sequence. */
  async list(id: number): Promise<AtSeq<List | undefined>> {
    const shape = this.#reads.shapes.get('list', (db, value) =>
      db
        .selectFrom(sequence(db))
        .leftJoin('lists as l', (join) =>
          join.on((eb) =>
            eb.and([eb('l.id', '=', value('id')), eb('l.status', '=', sql.lit('live'))]),
          ),
        )
        .select(['s.newest', 's.access', ...LIST_COLUMNS.map((c) => `l.${c}` as const)]),
    )
    const rows = await this.#reads.execute<Sequenced<ListRow>>(shape, { id })
    const { value, ...at } = sequenced(rows, toList)
    return { value: value[0], ...at }
  }

  /** The members of a list, by principal. */
  async members(listId: number): Promise<AtSeq<Member[]>> {
    const shape = this.#reads.shapes.get('members', (db, value) =>
      db
        .selectFrom(sequence(db))
        .leftJoin('members as m', (join) => join.on('m.list_id', '=', value('id')))
        .select(['s.newest', 's.access', 'm.list_id', 'm.principal', 'm.role']),
    )
    const rows = await this.#reads.execute<
      Sequenced<{ list_id: number; principal: string; role: Role }>
    >(shape, { id: listId })
    const at = sequenced(rows, (row) => ({ principal: row.principal, role: row.role }), 'list_id')
    // By code point, the same on every backend (a database's collation is not).
    at.value.sort((a, b) => (a.principal < b.principal ? -1 : a.principal > b.principal ? 1 : 0))
    return at
  }
}
