import { createHash } from 'node:crypto'
import type { MoveTask, NewTask, Task, TaskPatch } from '@tasklane/contract'
import {
  BadRequestError,
  ForbiddenError,
  IdempotencyConflictError,
  ListNotFoundError,
  PreconditionFailedError,
  TaskNotFoundError,
} from '../domain/domain-errors.js'
import { forbiddenIn } from '../domain/refusals.js'
import type { Caller } from '../domain/rights.js'
import { type IfMatch, keyOf, type TaskWrite, type WriteOutcome } from '../storage/open-storage.js'

/** A committed write (or, `replayed`, the response its Idempotency-Key got before). */
export interface Written {
  /** The task as answered; undefined for a delete. */
  readonly task: Task | undefined
  /** The seq of the change (of the task's latest change when `changed` is false). */
  readonly seq: number
  readonly replayed: boolean
  /** False for a patch that changed nothing. */
  readonly changed: boolean
}

/** A write as a route asks for it: who asks, what to write, its Idempotency-Key. */
export type WriteRequest = {
  readonly caller: Caller
  readonly key?: string | undefined
} & (
  | { readonly kind: 'create'; readonly task: NewTask }
  | {
      readonly kind: 'update'
      readonly id: number
      readonly patch: TaskPatch
      readonly ifMatch?: IfMatch | undefined
      readonly ifNoneMatch?: IfMatch | undefined
    }
  | {
      readonly kind: 'delete'
      readonly id: number
      readonly ifMatch?: IfMatch | undefined
      readonly ifNoneMatch?: IfMatch | undefined
    }
  | {
      readonly kind: 'move'
      readonly id: number
      readonly move: MoveTask
      readonly ifMatch?: IfMatch | undefined
      readonly ifNoneMatch?: IfMatch | undefined
    }
)

/** A field a request leaves out, in a digest's form: no field's value is an object. */
const ABSENT = {}

/** `form` and then `extra`, the fields left out as ABSENT, none after the last given. */
function grown(form: unknown[], extra: readonly unknown[]): unknown[] {
  let end = extra.length
  while (end > 0 && extra[end - 1] === undefined) end--
  return [...form, ...extra.slice(0, end).map((value) => (value === undefined ? ABSENT : value))]
}

const digest = (value: unknown) =>
  createHash('sha256').update(JSON.stringify(value)).digest('base64url')

/**
 * The digest an Idempotency-Key is bound to: the method, the task and the body. Each form
 * only grows at its end, with fields the request names (a create's first form was its name
 * and tag), so that a key stored by an earlier release still replays the same request; the
 * others start with their method, which no create's can.
 */
function fingerprint(request: WriteRequest): string {
  switch (request.kind) {
    case 'create': {
      const { name, tag, status, listId, notes, due, priority } = request.task
      // The first forms had null where status was left out, before a list was named.
      const named = status === undefined && listId !== undefined ? null : status
      return digest(grown([name, tag ?? null], [named, listId, notes, due, priority]))
    }
    case 'update': {
      // 0 marks name, tag or status left out (their first form): none of them is a number.
      const { name = 0, tag = 0, status = 0, listId, notes, due, priority } = request.patch
      return digest(grown(['PATCH', request.id, name, tag, status], [listId, notes, due, priority]))
    }
    case 'delete':
      return digest(['DELETE', request.id])
    case 'move': {
      const { before, after, to, listId } = request.move
      return digest(grown(['MOVE', request.id], [before, after, to, listId]))
    }
  }
}

/** The write as storage takes it: plain data only, since the batch may cross to a worker thread. */
export function toTaskWrite(request: WriteRequest): TaskWrite {
  // Only a keyed write is ever compared with another: hash only those.
  const { caller, key } = request
  const common = {
    caller,
    key: key === undefined ? undefined : keyOf(caller, key),
    fingerprint: key === undefined ? '' : fingerprint(request),
  }
  switch (request.kind) {
    case 'create':
      return { kind: 'create', ...common, ...request.task }
    case 'update':
      return {
        kind: 'update',
        ...common,
        id: request.id,
        patch: request.patch,
        ifMatch: request.ifMatch,
        ifNoneMatch: request.ifNoneMatch,
      }
    case 'delete': {
      const { id, ifMatch, ifNoneMatch } = request
      return { kind: 'delete', ...common, id, ifMatch, ifNoneMatch }
    }
    case 'move': {
      const { id, move, ifMatch, ifNoneMatch } = request
      const to =
        move.before !== undefined
          ? { before: move.before }
          : move.after !== undefined
            ? { after: move.after }
            : (move.to as 'top' | 'bottom')
      return { kind: 'move', ...common, id, to, listId: move.listId, ifMatch, ifNoneMatch }
    }
  }
}

export function written(request: WriteRequest, outcome: WriteOutcome): Written {
  switch (outcome.result) {
    case 'written':
      return outcome
    case 'key-conflict':
      throw new IdempotencyConflictError()
    case 'not-found':
      throw new TaskNotFoundError((request as { id: number }).id)
    case 'precondition-failed':
      throw new PreconditionFailedError((request as { id: number }).id, outcome.version)
    case 'list-not-found':
      throw new ListNotFoundError(outcome.listId)
    case 'forbidden':
      throw forbiddenIn(outcome.listId, 'tasks', outcome)
    case 'bad-reference':
      throw new BadRequestError(
        `Field "${outcome.field}" must name another task of the list the task is moved into; task ${outcome.id} is not one.`,
      )
    case 'no-list':
      throw new ForbiddenError(
        'There is no list you can add tasks to: name one in "listId", or create one with POST /list.',
      )
  }
}
