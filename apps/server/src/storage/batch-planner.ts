import type { Task } from '@tasklane/contract'
import { type Caller, defaultList, type Rights, type Role } from '../domain/rights.js'
import { ListOrder } from './list-order.js'
import {
  answered,
  changesOf,
  hits,
  matches,
  type PlannedWrite,
  patched,
  planningFields,
  priorState,
  type RowState,
  replayOf,
  rewriteOf,
  rowState,
} from './row-state.js'
import type { TaskWrite, WriteOutcome } from './storage.js'
import type {
  Applied,
  BatchContext,
  PlannedHistory,
  PlannedInsert,
  PlannedKey,
  PlannedRewrite,
  WritePlan,
} from './write-port.js'
import { badReference, candidateLists, type Refusal, refusedIn } from './write-rights.js'

type Change = Extract<TaskWrite, { kind: 'update' | 'delete' | 'move' }>

/**
 * Plans one batch, write by write, from what it read: the named steps of the algorithm.
 * Nothing is written until `plan` hands the result to the backend. Throws WindowNeeded
 * when a write places a task in a stretch of a manual order the batch has not read.
 */
export class BatchPlanner {
  readonly #context: BatchContext
  readonly #now: number
  /** Each key's request digest and planned result: stored ones, then those the batch stores. */
  readonly #known = new Map<string, { fingerprint: string; planned: PlannedWrite }>()
  readonly #rows = new Map<number, RowState>()
  readonly #roles = new Map<string, Map<number, Role>>()
  readonly #lists: ReadonlySet<number>
  readonly #order: ListOrder
  /** The lists the batch places tasks in. */
  readonly #placedIn = new Set<number>()
  readonly #inserts: PlannedInsert[] = []
  readonly #keys: PlannedKey[] = []
  readonly #history: PlannedHistory[] = []
  readonly #results: (PlannedWrite | Refusal)[] = []
  #changes = 0

  constructor(context: BatchContext, now: number) {
    this.#context = context
    this.#now = now
    for (const key of context.keys) this.#known.set(key.key, replayOf(key))
    for (const row of context.rows) this.#rows.set(Number(row.id), rowState(row))
    for (const { principal, listId, role } of context.members) {
      const roles = this.#roles.get(principal) ?? new Map<number, Role>()
      roles.set(Number(listId), role)
      this.#roles.set(principal, roles)
    }
    this.#lists = new Set(context.lists.map(Number))
    this.#order = new ListOrder(context.placed, context.windows)
  }

  /** Plans the next write of the batch. */
  add(item: TaskWrite): void {
    const key = item.key === undefined ? undefined : this.#known.get(item.key)
    if (key !== undefined) {
      this.#results.push(
        key.fingerprint === item.fingerprint
          ? { ...key.planned, replayed: true }
          : { result: 'key-conflict' },
      )
      return
    }
    const result = item.kind === 'create' ? this.#create(item) : this.#change(item)
    if ('seq' in result && item.key !== undefined)
      this.#remember(item.key, item.fingerprint, result)
    this.#results.push(result)
  }

  /** What the batch writes; undefined when it writes nothing (refusals and replays only). */
  plan(notBefore: number): WritePlan | undefined {
    const rewrites = this.#rewrites()
    if (this.#inserts.length === 0 && rewrites.length === 0 && this.#keys.length === 0) {
      return undefined
    }
    const orders = this.#context.orders.filter(({ listId }) => this.#placedIn.has(Number(listId)))
    return {
      now: this.#now,
      notBefore,
      accessSeq: this.#context.accessSeq,
      inserts: this.#inserts,
      rewrites,
      keys: this.#keys,
      history: this.#history,
      orders,
      changes: this.#changes,
    }
  }

  /** Each write's outcome, once the plan is applied (`base`: the seq before its first change). */
  outcomes(applied: Applied): WriteOutcome[] {
    return this.#results.map((result): WriteOutcome => {
      if (!('seq' in result)) return result
      const seq = 'abs' in result.seq ? result.seq.abs : applied.base + result.seq.off
      const id =
        typeof result.id === 'number' ? result.id : (applied.ids[result.id.insert] as number)
      return {
        result: 'written',
        task: result.task && ({ id, ...result.task } as Task),
        seq,
        replayed: result.replayed,
        changed: result.changed,
      }
    })
  }

  #create(item: Extract<TaskWrite, { kind: 'create' }>): PlannedWrite | Refusal {
    const rights = this.#rightsOf(item.caller)
    let listId = item.listId
    if (listId === undefined) {
      listId = defaultList(rights, candidateLists(rights, this.#lists, this.#context.firstList))
      if (listId === undefined) return { result: 'no-list' }
    } else {
      const refused = refusedIn(rights, listId, 'list', this.#lists)
      if (refused) return refused
    }
    const status = item.status ?? 'open'
    const by = item.caller.principal
    const state = {
      name: item.name,
      tag: item.tag ?? null,
      status,
      listId,
      notes: item.notes ?? null,
      due: item.due ?? null,
      priority: item.priority ?? 0,
      completedAt: status === 'done' ? this.#now : null,
      position: this.#order.bottom(listId),
      version: 1,
      createdAt: this.#now,
      createdBy: by,
      updatedAt: this.#now,
      updatedBy: by,
    }
    const off = ++this.#changes
    const { name, tag } = state
    this.#inserts.push({
      name,
      tag,
      status,
      list_id: listId,
      created_by: by,
      off,
      ...planningFields(state),
    })
    // Not an id yet: a place the later writes of the batch see.
    this.#place(-this.#inserts.length, listId, state.position)
    const task = answered(state)
    this.#keep(off, { insert: this.#inserts.length - 1 }, listId, by, 'created', undefined, task)
    return {
      seq: { off },
      id: { insert: this.#inserts.length - 1 },
      task,
      replayed: false,
      changed: true,
    }
  }

  #change(item: Change): PlannedWrite | Refusal {
    const row = this.#rows.get(item.id)
    if (row === undefined || row.status === 'deleted') return { result: 'not-found' }
    const rights = this.#rightsOf(item.caller)
    const target =
      item.kind === 'update' ? item.patch.listId : item.kind === 'move' ? item.listId : undefined
    const here = refusedIn(rights, row.listId, 'task', this.#lists)
    const there =
      target !== undefined && target !== row.listId
        ? refusedIn(rights, target, 'list', this.#lists)
        : undefined
    // The API's precedence: whatever is not found (the task, the list it goes to) before
    // whatever is forbidden.
    const refused = [here, there].find(
      (r) => r?.result === 'not-found' || r?.result === 'list-not-found',
    )
    if (refused ?? here ?? there) return (refused ?? here ?? there) as Refusal
    const reference =
      item.kind === 'move' ? badReference(item, target ?? row.listId, this.#rows) : undefined
    if (reference) return reference
    if (!matches(item.ifMatch, row.version) || hits(item.ifNoneMatch, row.version)) {
      return { result: 'precondition-failed', version: row.version }
    }
    const before = priorState(row)
    const was = answered(row)
    const changed = this.#apply(item, row)
    if (changed) {
      row.prev = before
      row.seq = { off: ++this.#changes }
      row.updatedAt = this.#now
      row.updatedBy = item.caller.principal
      if (item.kind === 'delete') {
        // The row stays as the feed's tombstone: no name, tag, notes or due (its history keeps
        // them for HISTORY_RETENTION_DAYS), the version it had.
        row.status = 'deleted'
        row.name = ''
        row.tag = null
        row.notes = null
        row.due = null
      } else {
        row.version++
      }
    }
    const task = item.kind === 'delete' ? undefined : answered(row)
    if (changed && 'off' in row.seq) {
      const type = item.kind === 'delete' ? 'deleted' : item.kind === 'move' ? 'moved' : 'updated'
      this.#keep(row.seq.off, { id: row.id }, row.listId, item.caller.principal, type, was, task)
    }
    return { seq: row.seq, id: row.id, task, replayed: false, changed }
  }

  /** Keeps the `off`-th change of the plan in the history. */
  #keep(
    off: number,
    task: PlannedHistory['task'],
    listId: number,
    actor: string,
    type: PlannedHistory['type'],
    before: Omit<Task, 'id'> | undefined,
    after: Omit<Task, 'id'> | undefined,
  ): void {
    const changes = changesOf(before, after)
    // What a webhook's delivery carries: the task after it, or for a delete its last version.
    const snapshot = JSON.stringify(after ?? { version: before?.version })
    this.#history.push({ off, task, listId, actor, type, changes, snapshot })
  }

  /** Changes `row` as `item` asks; false when that changes nothing. */
  #apply(item: Change, row: RowState): boolean {
    if (item.kind === 'delete') {
      this.#order.remove(row.id)
      return true
    }
    if (item.kind === 'update') {
      const from = row.listId
      const changed = patched(row, item.patch, this.#now)
      // Into another list: last in it.
      if (row.listId !== from) this.#place(row.id, row.listId, this.#order.bottom(row.listId))
      return changed
    }
    const listId = item.listId ?? row.listId
    this.#order.remove(row.id)
    const { to } = item
    const position =
      to === 'top' || to === 'bottom'
        ? this.#order[to](listId)
        : 'before' in to
          ? this.#order.beside(listId, to.before, 'before')
          : this.#order.beside(listId, to.after, 'after')
    row.listId = listId
    this.#place(row.id, listId, position)
    // One move is one change, wherever it lands.
    return true
  }

  #place(id: number, listId: number, position: string): void {
    this.#order.place(id, listId, position)
    this.#placedIn.add(listId)
    const row = this.#rows.get(id)
    if (row !== undefined) row.position = position
  }

  #rightsOf(caller: Caller): Rights {
    return { caller, roles: this.#roles.get(caller.principal) ?? new Map() }
  }

  #remember(key: string, fingerprint: string, planned: PlannedWrite): void {
    this.#known.set(key, { fingerprint, planned })
    this.#keys.push({
      key,
      fingerprint,
      task: typeof planned.id === 'number' ? { id: planned.id } : planned.id,
      seq: planned.seq,
      response: planned.task === undefined ? null : JSON.stringify(planned.task),
    })
  }

  /** The rows the batch changed, each in its final state with what its latest change replaced. */
  #rewrites(): PlannedRewrite[] {
    return [...this.#rows.values()].flatMap((row) => {
      const rewrite = rewriteOf(row)
      return rewrite === undefined ? [] : [rewrite]
    })
  }
}
