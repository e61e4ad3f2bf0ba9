import type { Kysely } from 'kysely'
import { searchText } from '../domain/search-text.js'
import type { AccessOutcome, AccessWrite, Sequencer } from './access-port.js'
import { accessChanged, managedList } from './list-rows.js'
import { hits, matches } from './row-state.js'
import type { Schema } from './tables.js'

/** Deletes the list: each of its tasks is a change of its own, then its members go, then it. */
export async function deleteList(
  trx: Kysely<Schema>,
  seqs: Sequencer,
  write: Extract<AccessWrite, { kind: 'delete-list' }>,
  now: number,
): Promise<AccessOutcome> {
  const { list, refused } = await managedList(trx, write.caller, write.id)
  if (refused) return refused
  if (
    !matches(write.ifMatch, Number(list.version)) ||
    hits(write.ifNoneMatch, Number(list.version))
  ) {
    return { result: 'precondition-failed', version: Number(list.version) }
  }
  const by = write.caller.principal
  const tasks = await trx
    .selectFrom('tasks')
    .select(['id', 'seq', 'tag', 'status', 'version', 'priority', 'due'])
    .where('list_id', '=', write.id)
    .where('status', '<>', 'deleted')
    .orderBy('id')
    .execute()
  for (const task of tasks) {
    const seq = seqs.next()
    await trx
      .insertInto('task_history')
      .values({
        seq,
        task_id: Number(task.id),
        list_id: write.id,
        at: now,
        actor: by,
        type: 'deleted',
        changes: '{}',
        task: JSON.stringify({ version: Number(task.version) }),
      })
      .execute()
    await trx
      .updateTable('tasks')
      .set({
        status: 'deleted',
        name: '',
        tag: null,
        notes: null,
        due: null,
        due_day: null,
        due_at: null,
        due_key: null,
        search: searchText('', null),
        updated_at: now,
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
  const members = await trx
    .deleteFrom('members')
    .where('list_id', '=', write.id)
    .returning('principal')
    .execute()
  const seq = seqs.next()
  for (const { principal } of members) await accessChanged(trx, principal, write.id, seq)
  await trx
    .updateTable('lists')
    .set({ status: 'deleted', updated_at: now, updated_by: by, seq })
    .where('id', '=', write.id)
    .execute()
  return { result: 'written', seq, replayed: false, changed: true }
}
