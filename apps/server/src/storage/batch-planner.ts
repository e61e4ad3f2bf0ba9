import type { Task } from '@tasklane/contract'
import {
  type Caller,
  type Decision,
  decide,
  defaultList,
  isAdmin,
  type Rights,
  type Role,
} from '../domain/rights.js'
import { answered, hits, matches, patched, type RowState, rowState } from './row-state.js'
import type { TaskWrite, WriteOutcome } from './storage.js'
import { storedTask } from './task-row.js'
import type {
  Applied,
  BatchContext,
  PlannedInsert,
  PlannedKey,
  PlannedRewrite,
  PlannedSeq,
  StoredKey,
  WritePlan,
} from './write-port.js'

/** A write's planned result, whose seq (and, for a create, id) is known once the plan is applied. */
interface PlannedWrite {
  readonly seq: PlannedSeq
  readonly task: Omit<Task, 'id'> | undefined
  readonly id: number | { readonly insert: number }
  readonly replayed: boolean
  readonly changed: boolean
}

type Refusal = Exclude<WriteOutcome, { result: 'written' }>

const NOT_FOUND: Refusal = { result: 'not-found' }

/**
 * Plans one batch, write by write, from what it read: the named steps of the algorithm.
 * Nothing is written until `plan` hands the result to the backend.
 */
export class BatchPlanner {
  readonly #context: BatchContext
  readonly #now: number
  /** Each key's request digest and planned result: stored ones, then those the batch stores. */
  readonly #known = new Map<string, { fingerprint: string; planned: PlannedWrite }>()
  readonly #rows = new Map<number, RowState>()
  readonly #roles = new Map<string, Map<number, Role>>()
  readonly #lists: ReadonlySet<number>
  readonly #inserts: PlannedInsert[] = []
  readonly #keys: PlannedKey[] = []
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
    return {
      now: this.#now,
      notBefore,
      accessSeq: this.#context.accessSeq,
      inserts: this.#inserts,
      rewrites,
      keys: this.#keys,
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
      listId = defaultList(rights, this.#candidateLists(rights))
      if (listId === undefined) return { result: 'no-list' }
    } else {
      const refused = this.#refusedIn(rights, listId, 'list')
      if (refused) return refused
    }
    const off = ++this.#changes
    const insert: PlannedInsert = {
      name: item.name,
      tag: item.tag ?? null,
      status: item.status ?? 'open',
      list_id: listId,
      created_by: item.caller.principal,
      off,
    }
    this.#inserts.push(insert)
    const task = answered({
      ...insert,
      listId,
      version: 1,
      createdAt: this.#now,
      createdBy: insert.created_by,
      updatedAt: this.#now,
      updatedBy: insert.created_by,
    })
    return {
      seq: { off },
      id: { insert: this.#inserts.length - 1 },
      task,
      replayed: false,
      changed: true,
    }
  }

  #change(item: Extract<TaskWrite, { kind: 'update' | 'delete' }>): PlannedWrite | Refusal {
    const row = this.#rows.get(item.id)
    if (row === undefined || row.status === 'deleted') return NOT_FOUND
    const rights = this.#rightsOf(item.caller)
    const refused = this.#refusedIn(rights, row.listId, 'task')
    if (refused) return refused
    const target = item.kind === 'update' ? item.patch.listId : undefined
    if (target !== undefined && target !== row.listId) {
      const elsewhere = this.#refusedIn(rights, target, 'list')
      if (elsewhere) return elsewhere
    }
    // RFC 9110's order: If-Match, then If-None-Match (which `*` fails for any task).
    if (!matches(item.ifMatch, row.version) || hits(item.ifNoneMatch, row.version)) {
      return { result: 'precondition-failed', version: row.version }
    }
    const before = { seq: row.seq, tag: row.tag, status: row.status, listId: row.listId }
    const changed = item.kind === 'delete' || patched(row, item.patch)
    if (changed) {
      row.prev = before
      row.seq = { off: ++this.#changes }
      row.updatedAt = this.#now
      row.updatedBy = item.caller.principal
      if (item.kind === 'delete') {
        // The row stays as the feed's tombstone: no name, no tag, the version it had.
        row.status = 'deleted'
        row.name = ''
        row.tag = null
      } else {
        row.version++
      }
    }
    const task = item.kind === 'delete' ? undefined : answered(row)
    return { seq: row.seq, id: row.id, task, replayed: false, changed }
  }

  /**
   * Why the caller may not edit in `listId`, or undefined when it may: a list that is gone
   * or hidden from it is not found (the task, or the list it names, as `missing` says).
   */
  #refusedIn(rights: Rights, listId: number, missing: 'task' | 'list'): Refusal | undefined {
    const decision: Decision =
      this.#lists.has(listId) || missing === 'task'
        ? decide(rights, listId, 'edit')
        : { verdict: 'hidden' }
    switch (decision.verdict) {
      case 'allowed':
        return undefined
      case 'hidden':
        return missing === 'task' ? NOT_FOUND : { result: 'list-not-found', listId }
      case 'forbidden':
        return { result: 'forbidden', listId, role: decision.role, readOnly: decision.readOnly }
    }
  }

  /** The lists a create without a list may go to, ascending: where the caller's roles are. */
  #candidateLists(rights: Rights): number[] {
    const { caller } = rights
    if (!isAdmin(caller)) return [...rights.roles.keys()].sort((a, b) => a - b)
    if (caller.lists !== undefined) return [...this.#lists].sort((a, b) => a - b)
    return this.#context.firstList === undefined ? [] : [Number(this.#context.firstList)]
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
    const rewrites: PlannedRewrite[] = []
    for (const row of this.#rows.values()) {
      if (row.prev === undefined || !('off' in row.seq)) continue
      rewrites.push({
        id: row.id,
        expectedSeq: row.expectedSeq,
        name: row.name,
        tag: row.tag,
        status: row.status,
        list_id: row.listId,
        version: row.version,
        updated_by: row.updatedBy,
        off: row.seq.off,
        prevSeq: row.prev.seq,
        prevTag: row.prev.tag,
        prevStatus: row.prev.status,
        prevListId: row.prev.listId,
      })
    }
    return rewrites
  }
}

/** A stored key as the batch knows it: the response its request got. */
function replayOf(stored: StoredKey): { fingerprint: string; planned: PlannedWrite } {
  return {
    fingerprint: stored.fingerprint,
    planned: {
      seq: { abs: Number(stored.seq) },
      id: Number(stored.targetId),
      task: stored.response === null ? undefined : storedTask(stored.response),
      replayed: true,
      changed: true,
    },
  }
}
