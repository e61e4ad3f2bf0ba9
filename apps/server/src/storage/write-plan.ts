import { isAdmin } from '../domain/rights.js'
import { BatchPlanner } from './batch-planner.js'
import type { TaskWrite, WriteOutcome } from './storage.js'
import { type BatchRead, STALE, type WriteStatements } from './write-port.js'

/** How often a batch starts over because another writer changed what it read meanwhile. */
const MAX_ATTEMPTS = 10

/**
 * The write algorithm, the same on every backend. The batch reads what it needs (keys,
 * rows, the callers' roles, the lists it names), plans each write in order against the
 * rows as the writes before it left them, and applies the plan in one transaction; when
 * another writer changed what it read meanwhile, it starts over. Each write, in the order
 * of the API's precedence: a key stored before replays its response (same request) or
 * clashes (another); a task or list the caller cannot read is not found; one it may not
 * change is forbidden; a failed If-Match leaves the task alone; a patch equal to the task
 * changes nothing. Each change gets the next seq; each key of a write that succeeded is
 * stored with its response in the same transaction. A key that occurs twice in a batch:
 * the second is the first's repeat.
 */
export async function writeBatch(
  statements: WriteStatements,
  items: readonly TaskWrite[],
  now: number,
  notBefore: number,
): Promise<WriteOutcome[]> {
  const request = batchRead(items, notBefore)
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const planner = new BatchPlanner(await statements.read(request), now)
    for (const item of items) planner.add(item)
    const plan = planner.plan(notBefore)
    if (plan === undefined) return planner.outcomes({ base: 0, ids: [] })
    const applied = await statements.apply(plan)
    if (applied === STALE) continue
    if (applied.ids.length !== plan.inserts.length || !applied.ids.every(Number.isSafeInteger)) {
      throw new Error(`Inserting ${plan.inserts.length} tasks did not give one id each.`)
    }
    return planner.outcomes(applied)
  }
  throw new Error(`Other writers changed what this batch read ${MAX_ATTEMPTS} times over.`)
}

/** What a batch reads: its keys, the tasks it touches, the roles and lists that decide. */
function batchRead(items: readonly TaskWrite[], notBefore: number): BatchRead {
  const keys = new Set<string>()
  const ids = new Set<number>()
  const principals = new Set<string>()
  const lists = new Set<number>()
  for (const item of items) {
    if (item.key !== undefined) keys.add(item.key)
    if (item.kind !== 'create') ids.add(item.id)
    const target =
      item.kind === 'create' ? item.listId : item.kind === 'update' ? item.patch.listId : undefined
    if (target !== undefined) lists.add(target)
    if (isAdmin(item.caller)) for (const id of item.caller.lists ?? []) lists.add(id)
    else principals.add(item.caller.principal)
  }
  return {
    keys: [...keys],
    notBefore,
    ids: [...ids],
    principals: [...principals],
    lists: [...lists],
  }
}
