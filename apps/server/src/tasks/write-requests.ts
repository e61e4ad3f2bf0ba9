import { createHash } from 'node:crypto'
import type { NewTask, TaskPatch } from '@tasklane/contract'
import {
  ForbiddenError,
  IdempotencyConflictError,
  ListNotFoundError,
  PreconditionFailedError,
  TaskNotFoundError,
} from '../domain/domain-errors.js'
import { forbiddenIn } from '../domain/refusals.js'
import type { Caller } from '../domain/rights.js'
import { type IfMatch, keyOf, type TaskWrite, type WriteOutcome } from '../storage/open-storage.js'
import type { Written } from './task-writer.js'

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
)

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
      const { name, tag, status, listId } = request.task
      const form: unknown[] = [name, tag ?? null]
      if (status !== undefined || listId !== undefined) form.push(status ?? null)
      if (listId !== undefined) form.push(listId)
      return digest(form)
    }
    case 'update': {
      // 0 marks a field the patch leaves out: no field's value can be a number but listId,
      // which comes last, and only when the patch names it.
      const { name = 0, tag = 0, status = 0, listId } = request.patch
      const form: unknown[] = ['PATCH', request.id, name, tag, status]
      if (listId !== undefined) form.push(listId)
      return digest(form)
    }
    case 'delete':
      return digest(['DELETE', request.id])
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
    case 'no-list':
      throw new ForbiddenError(
        'There is no list you can add tasks to: name one in "listId", or create one with POST /list.',
      )
  }
}
