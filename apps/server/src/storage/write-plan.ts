import { MAX_TASK_ID } from '@tasklane/contract'
import { isAdmin } from '../domain/rights.js'
import { BatchPlanner } from './batch-planner.js'
import { WindowNeeded } from './list-order.js'
import type { TaskWrite, WriteOutcome } from './storage.js'
import { type BatchRead, type OrderWindow, STALE, type WriteStatements } from './write-port.js'

/**
 * How often a batch starts over because another writer changed what it read meanwhile.
 * Instances that append to the same list's order contend on it: each round one of them
 * commits, so a batch that lost waits a random while (doubling, at most 64 ms) and tries
 * again, rather than all of them rereading at once.
 */
const MAX_ATTEMPTS = 40

/** The wait before attempt `attempt` + 1 after a stale plan: full jitter, 1 to 64 ms. */
const staleBackoff = (attempt: number) =>
  new Promise((resolve) => setTimeout(resolve, Math.random() * 2 ** Math.min(attempt, 6)))

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
  let request = batchRead(items, notBefore)
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const planner = new BatchPlanner(await statements.read(request), now)
    try {
      for (const item of items) planner.add(item)
    } catch (error) {
      if (!(error instanceof WindowNeeded)) throw error
      // A stretch of a manual order the first read could not know to read (a member's
      // default list, the ends of a task's own list): read again with it.
      const size = windowSize(items)
      request = { ...request, windows: [...request.windows, { ...error.window, size }] }
      attempt--
      if (request.windows.length > items.length * 3 + 2) throw error
      continue
    }
    const plan = planner.plan(notBefore)
    if (plan === undefined) return planner.outcomes({ base: 0, ids: [] })
    const applied = await statements.apply(plan)
    if (applied === STALE) {
      await staleBackoff(attempt)
      continue
    }
    if (applied.ids.length !== plan.inserts.length) {
      throw new Error(`Inserting ${plan.inserts.length} tasks did not give one id each.`)
    }
    // Ids are JSON numbers, exact only up to 2^53-1: past it the batch fails uncommitted.
    if (!applied.ids.every((id) => Number.isSafeInteger(id) && id <= MAX_TASK_ID)) {
      throw new Error('Task ids are exhausted: the next one is above 2^53-1.')
    }
    return planner.outcomes(applied)
  }
  throw new Error(`Other writers changed what this batch read ${MAX_ATTEMPTS} times over.`)
}

/** Whether a write takes an existing task out of its place: a move, or a change of list. */
const movesTask = (item: TaskWrite): boolean =>
  item.kind === 'move' || (item.kind === 'update' && item.patch.listId !== undefined)

/** Whether a write places a task in a list's manual order (reads a window of it). */
export const placesInOrder = (item: TaskWrite): boolean => item.kind === 'create' || movesTask(item)

/**
 * `write` with the batches that place tasks in a manual order taking turns. Two such
 * batches in flight at once read the same end of a list, and one of them is always stale
 * at its apply: on PostgreSQL (two batches in flight) a create then waited out the stale
 * batch's backoff, and durable POST fell to a few hundred a second. Taking turns within
 * the instance, creates gather into the next batch instead; other instances still meet
 * the staleness check.
 */
export function orderedInTurn(
  write: (items: readonly TaskWrite[], now: number, notBefore: number) => Promise<WriteOutcome[]>,
) {
  let last: Promise<unknown> = Promise.resolve()
  return (items: readonly TaskWrite[], now: number, notBefore: number) => {
    if (!items.some(placesInOrder)) return write(items, now, notBefore)
    const next = last.then(() => write(items, now, notBefore))
    last = next.catch(() => {})
    return next
  }
}

/**
 * How many places of a manual order a window holds on each side: more than the tasks the
 * batch may take out of it (moves and changes of list), so that the true neighbours of a
 * place are always among those read.
 */
function windowSize(items: readonly TaskWrite[]): number {
  return items.filter(movesTask).length + 1
}

/** The list a write names as its target, if any. */
function targetOf(item: TaskWrite): number | undefined {
  if (item.kind === 'create' || item.kind === 'move') return item.listId
  return item.kind === 'update' ? item.patch.listId : undefined
}

/**
 * What a batch reads: its keys, the tasks it touches (and those its moves name), the
 * roles and lists that decide, and the stretches of manual orders it places tasks in.
 */
function batchRead(items: readonly TaskWrite[], notBefore: number): BatchRead {
  const keys = new Set<string>()
  const ids = new Set<number>()
  const principals = new Set<string>()
  const lists = new Set<number>()
  const windows = new Map<string, OrderWindow>()
  const size = windowSize(items)
  const window = (listId: OrderWindow['listId'], at: OrderWindow['at']) =>
    windows.set(`${listId}:${typeof at === 'string' ? at : at.around}`, { listId, at, size })
  for (const item of items) {
    if (item.key !== undefined) keys.add(item.key)
    if (item.kind !== 'create') ids.add(item.id)
    const target = targetOf(item)
    if (target !== undefined) lists.add(target)
    if (isAdmin(item.caller)) for (const id of item.caller.lists ?? []) lists.add(id)
    else principals.add(item.caller.principal)
    if (item.kind === 'create' || (item.kind === 'update' && target !== undefined)) {
      window(target ?? 'first', 'bottom')
    }
    if (item.kind === 'move') {
      const { to } = item
      if (typeof to === 'string') {
        if (target !== undefined) window(target, to)
      } else {
        const ref = 'before' in to ? to.before : to.after
        ids.add(ref)
        window(target ?? 0, { around: ref })
      }
    }
  }
  return {
    keys: [...keys],
    notBefore,
    ids: [...ids],
    principals: [...principals],
    lists: [...lists],
    windows: [...windows.values()],
  }
}
