import type { Kysely } from 'kysely'
import type { AccessOutcome, AccessWrite, Sequencer, TokenRecord } from './access-port.js'
import type { Schema } from './tables.js'

/** Stores a new access token (its secret only as a digest) at `seq`. */
export async function createToken(
  trx: Kysely<Schema>,
  seq: number,
  { token, caller }: Extract<AccessWrite, { kind: 'create-token' }>,
  now: number,
): Promise<AccessOutcome> {
  const row = await trx
    .insertInto('tokens')
    .values({
      name: token.name,
      principal: token.principal,
      role: token.role,
      lists: token.lists === undefined ? null : JSON.stringify(token.lists),
      hash: token.hash,
      created_at: now,
      created_by: caller.principal,
      expires_at: token.expiresAt ?? null,
      revoked_at: null,
      seq,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  const { hash: _hash, ...record } = token
  const created: TokenRecord = {
    ...record,
    id: Number(row.id),
    createdAt: now,
    createdBy: caller.principal,
    revoked: false,
  }
  return { result: 'written', seq, replayed: false, changed: true, token: created }
}

/** Revokes a token: a non-admin only its own; one revoked already is not found. */
export async function revokeToken(
  trx: Kysely<Schema>,
  seqs: Sequencer,
  { id, caller }: Extract<AccessWrite, { kind: 'revoke-token' }>,
  now: number,
): Promise<AccessOutcome> {
  let query = trx
    .selectFrom('tokens')
    .select('id')
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
  if (caller.access !== 'admin') query = query.where('principal', '=', caller.principal)
  if ((await query.executeTakeFirst()) === undefined) return { result: 'token-not-found', id }
  const seq = seqs.next()
  await trx.updateTable('tokens').set({ revoked_at: now, seq }).where('id', '=', id).execute()
  return { result: 'written', seq, replayed: false, changed: true }
}
