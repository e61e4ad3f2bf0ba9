import type { Kysely } from 'kysely'
import type { AccessOutcome, AccessWrite, AccessWritten, Sequencer } from './access-port.js'

import {
  accessChanged,
  lastOwner,
  managedList,
  memberRole,
  setMember,
  toList,
} from './list-rows.js'
import { hits, matches } from './row-state.js'
import type { Schema } from './tables.js'
import { createToken, revokeToken } from './token-writes.js'

/**
 * An access write applied in a transaction its backend has begun (and holds the ordering
 * lock of): lists, members and tokens, each change taking the next seq of the one sequence,
 * rights checked with `decide` against the caller's roles as they are in this transaction.
 * Resolves with the outcome and the newest seq written (0 when nothing was), which the
 * backend announces once committed.
 */
export async function applyAccessWrite(
  trx: Kysely<Schema>,
  write: AccessWrite,
  now: number,
  notBefore: number,
): Promise<AccessWritten> {
  const { seq: base } = await trx
    .selectFrom('change_sequence')
    .select('seq')
    .where('id', '=', 1)
    .executeTakeFirstOrThrow()
  let taken = 0
  const seqs: Sequencer = {
    next: () => Number(base) + ++taken,
    get newest() {
      return taken === 0 ? 0 : Number(base) + taken
    },
  }
  const outcome = await new AccessTransaction(trx, seqs, now, notBefore).apply(write)
  if (taken > 0) {
    const access = write.kind === 'rename-list' ? {} : { access_seq: seqs.newest }
    await trx
      .updateTable('change_sequence')
      .set({ seq: seqs.newest, ...access })
      .where('id', '=', 1)
      .execute()
  }
  return { outcome, newest: seqs.newest, accessChanged: taken > 0 && write.kind !== 'rename-list' }
}

/** One access write's transaction: the steps of each kind of write. */
class AccessTransaction {
  constructor(
    private readonly trx: Kysely<Schema>,
    private readonly seqs: Sequencer,
    private readonly now: number,
    private readonly notBefore: number,
  ) {}

  async apply(write: AccessWrite): Promise<AccessOutcome> {
    if (write.kind === 'create-token')
      return createToken(this.trx, this.seqs.next(), write, this.now)
    if (write.kind === 'revoke-token') return revokeToken(this.trx, this.seqs, write, this.now)
    if (write.key !== undefined) {
      const stored = await this.trx
        .selectFrom('idempotency_keys')
        .select(['fingerprint', 'target_id', 'seq', 'response'])
        .where('key', '=', write.key)
        .where('created_at', '>=', this.notBefore)
        .executeTakeFirst()
      if (stored !== undefined) {
        if (stored.fingerprint !== write.fingerprint) return { result: 'key-conflict' }
        return replayed(write, stored)
      }
    }
    const outcome = await this.#keyed(write)
    if (write.key !== undefined && outcome.result === 'written') {
      await this.#saveKey(write.key, write.fingerprint, outcome, targetOf(write, outcome))
    }
    return outcome
  }

  async #keyed(write: Exclude<AccessWrite, { kind: 'create-token' | 'revoke-token' }>) {
    switch (write.kind) {
      case 'create-list':
        return this.#createList(write)
      case 'rename-list':
        return this.#renameList(write)
      case 'delete-list':
        return this.#deleteList(write)
      case 'put-member':
        return this.#putMember(write)
      case 'remove-member':
        return this.#removeMember(write)
    }
  }

  async #createList(write: Extract<AccessWrite, { kind: 'create-list' }>): Promise<AccessOutcome> {
    // After the key: a replay comes first. An admin's too: a list made with a credential
    // limited to some lists would be outside what it may reach.
    const { caller } = write
    if (caller.access === 'read' || caller.lists !== undefined) {
      return {
        result: 'cannot-create',
        readOnly: caller.access === 'read',
        lists: caller.lists ?? [],
      }
    }
    const seq = this.seqs.next()
    const by = write.caller.principal
    const row = await this.trx
      .insertInto('lists')
      .values({
        name: write.name,
        status: 'live',
        version: 1,
        created_at: this.now,
        updated_at: this.now,
        created_by: by,
        updated_by: by,
        seq,
        order_seq: seq,
      })
      .returningAll()
      .executeTakeFirstOrThrow()
    await setMember(this.trx, { listId: Number(row.id), principal: by, role: 'owner' }, seq, true)
    return { result: 'written', seq, replayed: false, changed: true, list: toList(row) }
  }

  async #renameList(write: Extract<AccessWrite, { kind: 'rename-list' }>): Promise<AccessOutcome> {
    const { list, refused } = await managedList(this.trx, write.caller, write.id)
    if (refused) return refused
    if (
      !matches(write.ifMatch, Number(list.version)) ||
      hits(write.ifNoneMatch, Number(list.version))
    ) {
      return { result: 'precondition-failed', version: Number(list.version) }
    }
    if (list.name === write.name) {
      return {
        result: 'written',
        seq: Number(list.seq),
        replayed: false,
        changed: false,
        list: toList(list),
      }
    }
    const seq = this.seqs.next()
    const row = await this.trx
      .updateTable('lists')
      .set({
        name: write.name,
        version: Number(list.version) + 1,
        updated_at: this.now,
        updated_by: write.caller.principal,
        seq,
      })
      .where('id', '=', write.id)
      .returningAll()
      .executeTakeFirstOrThrow()
    return { result: 'written', seq, replayed: false, changed: true, list: toList(row) }
  }

  /** Deletes the list: each of its tasks is a change of its own, then its members go, then it. */
  async #deleteList(write: Extract<AccessWrite, { kind: 'delete-list' }>): Promise<AccessOutcome> {
    const { list, refused } = await managedList(this.trx, write.caller, write.id)
    if (refused) return refused
    if (
      !matches(write.ifMatch, Number(list.version)) ||
      hits(write.ifNoneMatch, Number(list.version))
    ) {
      return { result: 'precondition-failed', version: Number(list.version) }
    }
    const by = write.caller.principal
    const tasks = await this.trx
      .selectFrom('tasks')
      .select(['id', 'seq', 'tag', 'status', 'version', 'priority', 'due'])
      .where('list_id', '=', write.id)
      .where('status', '<>', 'deleted')
      .orderBy('id')
      .execute()
    for (const task of tasks) {
      const seq = this.seqs.next()
      await this.trx
        .insertInto('task_history')
        .values({
          seq,
          task_id: Number(task.id),
          list_id: write.id,
          at: this.now,
          actor: by,
          type: 'deleted',
          changes: '{}',
          task: JSON.stringify({ version: Number(task.version) }),
        })
        .execute()
      await this.trx
        .updateTable('tasks')
        .set({
          status: 'deleted',
          name: '',
          tag: null,
          updated_at: this.now,
          updated_by: by,
          seq,
          prev_seq: Number(task.seq),
          prev_tag: task.tag,
          prev_status: task.status,
          prev_list_id: write.id,
          prev_priority: Number(task.priority),
          prev_due: task.due,
        })
        .where('id', '=', Number(task.id))
        .execute()
    }
    const members = await this.trx
      .deleteFrom('members')
      .where('list_id', '=', write.id)
      .returning('principal')
      .execute()
    const seq = this.seqs.next()
    for (const { principal } of members) await accessChanged(this.trx, principal, write.id, seq)
    await this.trx
      .updateTable('lists')
      .set({ status: 'deleted', updated_at: this.now, updated_by: by, seq })
      .where('id', '=', write.id)
      .execute()
    return { result: 'written', seq, replayed: false, changed: true }
  }

  async #putMember(write: Extract<AccessWrite, { kind: 'put-member' }>): Promise<AccessOutcome> {
    const { refused } = await managedList(this.trx, write.caller, write.listId)
    if (refused) return refused
    const stored = await memberRole(this.trx, write.listId, write.principal)
    const current = stored?.role
    if (current === write.role) {
      const member = { principal: write.principal, role: current, created: false }
      return { result: 'written', seq: stored?.seq ?? 0, replayed: false, changed: false, member }
    }
    if (current === 'owner' && (await lastOwner(this.trx, write.listId))) {
      return { result: 'last-owner', listId: write.listId, principal: write.principal }
    }
    const seq = this.seqs.next()
    await setMember(this.trx, write, seq, current === undefined)
    const member = { principal: write.principal, role: write.role, created: current === undefined }
    return { result: 'written', seq, replayed: false, changed: true, member }
  }

  async #removeMember(
    write: Extract<AccessWrite, { kind: 'remove-member' }>,
  ): Promise<AccessOutcome> {
    // Anyone may leave a list they are in; removing another member is the owners' to do.
    const self = write.principal === write.caller.principal
    const { refused } = await managedList(
      this.trx,
      write.caller,
      write.listId,
      self ? 'read' : 'manage',
    )
    if (refused) return refused
    const current = (await memberRole(this.trx, write.listId, write.principal))?.role
    // Leaving is a change all the same: a read-only credential changes nothing.
    if (self && write.caller.access === 'read') {
      return { result: 'forbidden', listId: write.listId, role: current, readOnly: true }
    }
    if (current === undefined) {
      return { result: 'member-not-found', listId: write.listId, principal: write.principal }
    }
    if (current === 'owner' && (await lastOwner(this.trx, write.listId))) {
      return { result: 'last-owner', listId: write.listId, principal: write.principal }
    }
    const seq = this.seqs.next()
    await this.trx
      .deleteFrom('members')
      .where('list_id', '=', write.listId)
      .where('principal', '=', write.principal)
      .execute()
    await accessChanged(this.trx, write.principal, write.listId, seq)
    return { result: 'written', seq, replayed: false, changed: true }
  }

  async #saveKey(key: string, fingerprint: string, outcome: AccessOutcome, targetId: number) {
    if (outcome.result !== 'written') return
    const response = outcome.list
      ? JSON.stringify(outcome.list)
      : outcome.member
        ? JSON.stringify(outcome.member)
        : null
    const values = {
      fingerprint,
      target_id: targetId,
      created_at: this.now,
      seq: outcome.seq,
      response,
    }
    await this.trx
      .insertInto('idempotency_keys')
      .values({ key, ...values })
      .onConflict((conflict) => conflict.column('key').doUpdateSet(values))
      .execute()
  }
}

/** The list a keyed write wrote (the stored key's target). */
function targetOf(write: AccessWrite, outcome: AccessOutcome): number {
  if (outcome.result === 'written' && outcome.list) return outcome.list.id
  return 'listId' in write ? write.listId : 'id' in write ? write.id : 0
}

/** A stored key's response, answered again. */
function replayed(
  write: AccessWrite,
  stored: { target_id: number; seq: number; response: string | null },
): AccessOutcome {
  const seq = Number(stored.seq)
  const body = stored.response === null ? undefined : JSON.parse(stored.response)
  const common = { result: 'written', seq, replayed: true, changed: true } as const
  if (write.kind === 'put-member') return { ...common, member: body }
  if (write.kind === 'create-list' || write.kind === 'rename-list') return { ...common, list: body }
  return common
}
