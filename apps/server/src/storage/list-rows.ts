// The rows of lists and members as the access writes read and change them: plain functions
// that take the transaction first.
import type { List } from '@tasklane/contract'
import type { Kysely } from 'kysely'
import { type Caller, decide, type Rights, type Role } from '../domain/rights.js'
import type { AccessOutcome } from './access-port.js'
import type { Schema } from './tables.js'
import { timestamp } from './task-row.js'

/** The caller's rights in `listId`: its role there, as stored now. */
export async function rightsIn(
  trx: Kysely<Schema>,
  caller: Caller,
  listId: number,
): Promise<Rights> {
  const row = await trx
    .selectFrom('members')
    .select('role')
    .where('list_id', '=', listId)
    .where('principal', '=', caller.principal)
    .executeTakeFirst()
  return { caller, roles: new Map(row ? [[listId, row.role]] : []) }
}

/** The live list `listId` if the caller may `manage` it, else why not. */
export async function managedList(
  trx: Kysely<Schema>,
  caller: Caller,
  listId: number,
  action: 'manage' | 'read' = 'manage',
) {
  const list = await trx
    .selectFrom('lists')
    .selectAll()
    .where('id', '=', listId)
    .where('status', '=', 'live')
    .executeTakeFirst()
  const refused = (outcome: AccessOutcome) => ({ list: undefined, refused: outcome })
  if (list === undefined) return refused({ result: 'list-not-found', listId })
  const decision = decide(await rightsIn(trx, caller, listId), listId, action)
  if (decision.verdict === 'hidden') return refused({ result: 'list-not-found', listId })
  if (decision.verdict === 'forbidden') {
    const { role, readOnly } = decision
    return refused({ result: 'forbidden', listId, role, readOnly })
  }
  return { list, refused: undefined }
}

/** A principal's role in a list and the seq that gave it, if it is a member. */
export async function memberRole(
  trx: Kysely<Schema>,
  listId: number,
  principal: string,
): Promise<{ role: Role; seq: number } | undefined> {
  const row = await trx
    .selectFrom('members')
    .select(['role', 'seq'])
    .where('list_id', '=', listId)
    .where('principal', '=', principal)
    .executeTakeFirst()
  return row && { role: row.role, seq: Number(row.seq) }
}

/** Whether the list has one owner only. */
export async function lastOwner(trx: Kysely<Schema>, listId: number): Promise<boolean> {
  const { owners } = await trx
    .selectFrom('members')
    .select((eb) => eb.fn.countAll<number>().as('owners'))
    .where('list_id', '=', listId)
    .where('role', '=', 'owner')
    .executeTakeFirstOrThrow()
  return Number(owners) <= 1
}

export async function setMember(
  trx: Kysely<Schema>,
  { listId, principal, role }: { listId: number; principal: string; role: Role },
  seq: number,
  added: boolean,
) {
  await trx
    .insertInto('members')
    .values({ list_id: listId, principal, role, seq })
    .onConflict((conflict) => conflict.columns(['list_id', 'principal']).doUpdateSet({ role, seq }))
    .execute()
  if (added) await accessChanged(trx, principal, listId, seq)
}

/** `principal` gained or lost the right to read `listId` at `seq`: its feeds must know. */
export async function accessChanged(
  trx: Kysely<Schema>,
  principal: string,
  listId: number,
  seq: number,
) {
  await trx.insertInto('access_changes').values({ seq, principal, list_id: listId }).execute()
}

/** A list's row as the API answers it. */
export function toList(row: {
  id: number
  name: string
  version: number
  created_at: number
  updated_at: number
}): List {
  return {
    id: Number(row.id),
    name: row.name,
    version: Number(row.version),
    createdAt: timestamp(Number(row.created_at)),
    updatedAt: timestamp(Number(row.updated_at)),
  }
}
