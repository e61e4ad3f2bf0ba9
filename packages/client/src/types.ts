import type * as contract from '@tasklane/contract'

// Spelled out rather than re-exported from @tasklane/contract: the contract's types are
// TypeBox's `Static<…>`, so re-exporting them would make every user of the default entry
// install TypeBox for its declarations. The checks at the end keep these equal to the
// contract's, so a change to a schema still breaks this build.

/** A task's state: `open` until done; a done task can be opened again. */
export type TaskStatus = 'open' | 'done'

/** A stored task. A task without a tag has no `tag` key. */
export interface Task {
  /** Identifier of the task, assigned by the server: 1 to 2^53−1, ascending in creation order. */
  id: number
  /** The list the task is in. */
  listId: number
  /** Name of the task: 1–200 characters, not only whitespace. */
  name: string
  /** Optional tag: 1–64 characters, not only whitespace. */
  tag?: string
  /** Optional notes: 1–10,000 characters of plain text, newlines allowed. */
  notes?: string
  /** `open` or `done`. */
  status: TaskStatus
  /** 0 none, 1 low, 2 medium, 3 high. */
  priority: number
  /** When it is due: a day (`2026-12-01`) or a moment with an offset, as it was sent. */
  due?: string
  /** When it became done (RFC 3339, UTC, milliseconds); absent while open. */
  completedAt?: string
  /** Its place in its list's manual order: positions compare as bytes. */
  position: string
  /** 1 when created, one more on every change; the task's ETag is `"<version>"`. */
  version: number
  /** When the task was created: RFC 3339, UTC, milliseconds. */
  createdAt: string
  /** Who created the task (a principal). */
  createdBy: string
  /** When the task last changed: RFC 3339, UTC, milliseconds. */
  updatedAt: string
  /** Who changed the task last (its creator until it is changed). */
  updatedBy: string
}

/** A task to create: the body of `createTask`. */
export interface NewTask {
  /** Name of the task: 1–200 characters, not only whitespace. */
  name: string
  /** Optional tag: 1–64 characters, not only whitespace. */
  tag?: string
  /** `open` (the default) or `done`. */
  status?: TaskStatus
  /** The list to create it in; omitted: the lowest-id list the caller can edit. */
  listId?: number
  /** Notes: 1–10,000 characters, newlines allowed. */
  notes?: string
  /** A day (`2026-12-01`) or a date-time with an offset. */
  due?: string
  /** 0 none (the default), 1 low, 2 medium, 3 high. */
  priority?: number
}

/** The fields to change with `updateTask` (a JSON Merge Patch): at least one; `tag: null` removes the tag. */
export interface TaskPatch {
  /** A new name: 1–200 characters, not only whitespace. */
  name?: string
  /** A new tag (1–64 characters, not only whitespace), or `null` to remove it. */
  tag?: string | null
  /** `open` or `done`. */
  status?: TaskStatus
  /** Moves the task into this list (the caller must be an editor of both). */
  listId?: number
  /** New notes, or `null` to remove them. */
  notes?: string | null
  /** A new due, or `null` to remove it. */
  due?: string | null
  /** 0 none, 1 low, 2 medium, 3 high; `null` is 0. */
  priority?: number | null
}

/** How `listTasks` and `tasks()` sort: by id (the default), due (undated last both ways), priority, position (the manual order: by list, then position) or last change; ties by id. */
export type TaskSort = 'id' | 'due' | 'priority' | 'position' | 'updated'

/** Where `moveTask` puts a task: just before or after another task, or at the top or bottom of its list. */
export type MoveTarget = { before: number } | { after: number } | 'top' | 'bottom'

/** The body of POST /tasks/{id}/move, as `moveTask` sends it: exactly one of `before`, `after` and `to`, and optionally `listId`. */
export interface MoveTask {
  /** Put it just before this task. */
  before?: number
  /** Put it just after this task. */
  after?: number
  /** Put it first (`top`) or last (`bottom`) of its list. */
  to?: 'top' | 'bottom'
  /** Move it into this list too (the caller must be an editor of both lists). */
  listId?: number
}

/** What a history entry records: `moved` is a `moveTask`; `updated` any other change, a move into another list by `updateTask` included. */
export type HistoryType = 'created' | 'updated' | 'moved' | 'deleted'

/** One field's change in a history entry: its value before and after (`null`: it had none, or has none). */
export interface FieldChange {
  /** The value before the change; `null` when it had none. */
  from: unknown
  /** The value after the change; `null` when it has none. */
  to: unknown
}

/** One change of a task, as `taskHistory` and `history` yield it. */
export interface HistoryEntry {
  /** The seq of the change: the change feed numbers it the same. */
  seq: number
  /** When the change was committed: RFC 3339, UTC, milliseconds. */
  at: string
  /** Who made the change (a principal). */
  actor: string
  /** What kind of change it was. */
  type: HistoryType
  /** The fields it set, each with its value before and after (`{ status: { from: 'open', to: 'done' } }`); empty for a delete. */
  changes: Record<string, FieldChange>
}

/** What a `deleted` event of the change feed carries: the task's id and its version when deleted. */
export interface DeletedTask {
  /** Identifier of the deleted task. */
  id: number
  /** Its version when it was deleted (a delete does not bump it). */
  version: number
}

/**
 * One change of the change feed, as `watch` yields it: `created` and `updated` carry the
 * task after the change, `deleted` its id and version. `seq` orders every change of the
 * database; with a tag or status filter, a task leaving the view comes as `deleted` and
 * one entering it as `created`. `reset` (no task) says that the caller gained or lost a
 * list at `seq`: what it holds may be wrong now, so it lists again.
 */
export type TaskEvent =
  | { type: 'created' | 'updated'; seq: number; task: Task }
  | { type: 'deleted'; seq: number; task: DeletedTask }
  | { type: 'reset'; seq: number; task?: undefined }

/** An event of the feed that changes a task: any but `reset`. */
export type TaskChange = Exclude<TaskEvent, { type: 'reset' }>

/** A list of tasks: the unit of sharing. Every task is in exactly one list. */
export interface List {
  /** Identifier of the list, assigned by the server. */
  id: number
  /** Name of the list: 1–200 characters, not only whitespace. */
  name: string
  /** 1 when created, one more on every rename; the list's ETag is `"<version>"`. */
  version: number
  /** When the list was created: RFC 3339, UTC, milliseconds. */
  createdAt: string
  /** When the list last changed: RFC 3339, UTC, milliseconds. */
  updatedAt: string
}

/** A list to create: the body of `createList`. Its creator becomes its owner. */
export interface NewList {
  /** Name of the list: 1–200 characters, not only whitespace. */
  name: string
}

/** The fields to change with `updateList` (a JSON Merge Patch). */
export interface ListPatch {
  /** A new name: 1–200 characters, not only whitespace. */
  name?: string
}

/** A role in a list: `viewer` reads it; `editor` also changes its tasks; `owner` also renames, deletes and shares it. */
export type Role = 'viewer' | 'editor' | 'owner'

/** A member of a list: a principal (a person or program that calls the API) and its role. */
export interface Member {
  /** Who: 1–128 visible ASCII characters (`alice`, `ci-bot`, a JWT's `sub`). */
  principal: string
  /** What it may do in the list. */
  role: Role
}

/** What a credential allows: `read` (no changes), `write` (what its principal's roles allow), `admin` (everything). */
export type Access = 'read' | 'write' | 'admin'

/** An access token to make: the body of `createToken`. */
export interface NewToken {
  /** What the token is for: 1–200 characters. */
  name: string
  /** Who it acts as; omitted: the caller. Only an admin names another principal. */
  principal?: string
  /** What it allows; omitted: `write` (`read` from a read-only caller). Never more than the caller has. */
  role?: Access
  /** Only these lists (1–100 ids); omitted: every list of its principal. */
  lists?: number[]
  /** When it stops working (RFC 3339, in the future); omitted: never. */
  expiresAt?: string
}

/** An access token as `listTokens` shows it: never its secret. */
export interface Token {
  /** Identifier of the token: what `revokeToken` takes. */
  id: number
  /** What the token is for. */
  name: string
  /** Who the token acts as. */
  principal: string
  /** What it allows. */
  role: Access
  /** Only these lists; absent: every list of its principal. */
  lists?: number[]
  /** When it stops working; absent: never. */
  expiresAt?: string
  /** When it was made: RFC 3339, UTC, milliseconds. */
  createdAt: string
  /** Who made it. */
  createdBy: string
}

/** An access token as `createToken` answers it: its record and its secret, shown this once. */
export interface CreatedToken extends Token {
  /** The secret (`tl_…`): the `token` option of a client that acts as `principal`. Never shown again. */
  token: string
}

/** The caller as the server sees it: `me()`. */
export interface Me {
  /** The principal the requests act as (`local` on a server without credentials). */
  principal: string
  /** What the credential allows. */
  role: Access
  /** Only these lists, when the credential is narrowed to some. */
  lists?: number[]
  /** The principal's role in each list it is a member of (an admin needs none). */
  roles: { listId: number; role: Role }[]
}

/** The body of every non-2xx response: `code` equals the HTTP status. */
export interface ErrorBody {
  /** The HTTP status code. */
  code: number
  /** One readable sentence; names the offending field or parameter for a 4xx. */
  message: string
}

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
type Expect<T extends true> = T
type _SameAsContract = [
  Expect<Same<Task, contract.Task>>,
  Expect<Same<NewTask, contract.NewTask>>,
  Expect<Same<TaskPatch, contract.TaskPatch>>,
  Expect<Same<DeletedTask, contract.DeletedTask>>,
  Expect<Same<TaskStatus, contract.TaskStatus>>,
  // `reset` is not among the contract's kinds of change: it ends a stream rather than changing a task.
  Expect<Same<Exclude<TaskEvent['type'], 'reset'>, contract.ChangeType>>,
  Expect<Same<ErrorBody, contract.ErrorBody>>,
  Expect<Same<List, contract.List>>,
  Expect<Same<NewList, contract.NewList>>,
  Expect<Same<ListPatch, contract.ListPatch>>,
  Expect<Same<Role, contract.Role>>,
  Expect<Same<Member, contract.Member>>,
  Expect<Same<Access, contract.Access>>,
  Expect<Same<NewToken, contract.NewToken>>,
  Expect<Same<Token, contract.Token>>,
  Expect<Same<CreatedToken, contract.CreatedToken>>,
  Expect<Same<Me, contract.Me>>,
  Expect<Same<MoveTask, contract.MoveTask>>,
  Expect<Same<HistoryType, contract.HistoryType>>,
  Expect<Same<FieldChange, contract.FieldChange>>,
  Expect<Same<HistoryEntry, contract.HistoryEntry>>,
  Expect<Same<TaskSort, NonNullable<contract.ListTasksQuery['sort']>>>,
  // Each target is one of the body's shapes, so what moveTask sends is a MoveTask.
  Expect<Same<Extract<MoveTarget, object> extends contract.MoveTask ? true : false, true>>,
  Expect<Same<Extract<MoveTarget, string>, NonNullable<contract.MoveTask['to']>>>,
]
