import type { ResponseValidator } from './response-validator.js'
import type { RetryOptions } from './retry.js'
import type { TaskSort, TaskStatus } from './types.js'

/** How to reach the server and how every request is sent. */
export interface ClientOptions {
  /** Where the server listens, e.g. `http://127.0.0.1:3000` (a path prefix is kept). */
  baseUrl: string
  /** The fetch to use; defaults to the global one. Pass one in for tests or custom agents. */
  fetch?: typeof globalThis.fetch
  /** Headers sent with every request; a value must be printable ASCII, else calls throw a TypeError. */
  headers?: Record<string, string>
  /**
   * The credential, sent as `Authorization: Bearer <token>`: the server's API token, an
   * access token (`tl_…`) or a JWT. A function is asked before every attempt, and once more
   * after a 401, the request then sent again once (a string: the 401 is the answer). One
   * with a line break or a non-ASCII character makes calls throw a TypeError.
   */
  token?: string | (() => string | Promise<string>)
  /** Milliseconds to wait for each attempt's whole response before a TimeoutError; 0 waits forever. Default 30000. */
  timeoutMs?: number
  /** Retry settings, or `false` for none. Default: 2 retries, 500 ms doubling up to 8 s, with jitter. */
  retry?: RetryOptions | false
  /** Checks every response body, e.g. `validateResponses` from `@tasklane/client/validate`. */
  validate?: ResponseValidator
}

/** Options of a single call. */
export interface RequestOptions {
  /** Aborts the call, also while it waits to retry; it then rejects with AbortError. */
  signal?: AbortSignal
  /** Overrides the client's `timeoutMs` for this call (per attempt). */
  timeoutMs?: number
  /** Extra headers for this call. */
  headers?: Record<string, string>
  /** Overrides the client's `retry` for this call; `false` turns retrying off. */
  retry?: RetryOptions | false
}

/** Options of every create, change and delete but `createToken`: `createTask`, `putMember`, ... */
export interface WriteOptions extends RequestOptions {
  /**
   * Idempotency-Key header. Without one, the client generates a fresh key per call when
   * retries are on, so that a retried create can never make two tasks (or lists, ...).
   */
  idempotencyKey?: string
}

/** Options of `getTask` and `getList`. */
export interface ReadOptions extends RequestOptions {
  /**
   * The version (or ETag) of the copy you hold: when it still has it, the server answers
   * 304 and the call resolves to undefined.
   */
  ifNoneMatch?: number | string
}

/** Options of `updateTask`, `completeTask`, `reopenTask`, `deleteTask`, `updateList` and `deleteList`. */
export interface ChangeOptions extends WriteOptions {
  /**
   * Change it only if it still has this version (a number) or one of these ETags (a string
   * such as `"3"`, `"3", "4"` or `*`); otherwise the call rejects with a
   * PreconditionFailedError and nothing changes.
   */
  ifMatch?: number | string
}

/** Options of `createTask`: the same as WriteOptions. */
export type CreateTaskOptions = WriteOptions

/** Options of `getTask`: the same as ReadOptions. */
export type GetTaskOptions = ReadOptions

/** Options of `updateTask`, `completeTask`, `reopenTask` and `deleteTask`: the same as ChangeOptions. */
export type ChangeTaskOptions = ChangeOptions

/** Which tasks a listing holds: status and tag filters, and their order. */
export interface TaskFilter {
  /** Only tasks with exactly this tag. */
  tag?: string
  /** Only tasks with this status. */
  status?: TaskStatus
  /** `'asc'` (the default): oldest first; `'desc'`: newest first. */
  order?: 'asc' | 'desc'
  /** Only tasks of this list (its id); default: of every list the caller can read. */
  list?: number
}

/** The planning filters of a listing: priority, due dates, overdue and words to search for. */
export interface PlanningFilter {
  /** Only tasks of this priority: 0 none, 1 low, 2 medium, 3 high. */
  priority?: number
  /** Only tasks due on this day (`YYYY-MM-DD`) or later; a moment counts on its day in `tz`. */
  dueFrom?: string
  /** Only tasks due on this day (`YYYY-MM-DD`) or earlier; a moment counts on its day in `tz`. */
  dueTo?: string
  /** The IANA time zone (`Europe/Paris`) in which `dueFrom`, `dueTo` and `overdue` count days; default UTC. */
  tz?: string
  /** `true`: only open tasks due before now (a day is due until it ends in `tz`); `false`: no such filter. */
  overdue?: boolean
  /** Words to search for in name and notes: each must begin a word of the task; case and accents ignored. */
  q?: string
}

/** Options of `listTasks`: keyset pagination, sort and order, and every filter. */
export interface ListTasksOptions extends RequestOptions, TaskFilter, PlanningFilter {
  /**
   * `id` (the default), `due` (undated last both ways), `priority`, `position` (the manual
   * order: by list, then position) or `updated`; `order: 'desc'` reverses it; ties by id.
   * For a sort other than `id`, page with `tasks()`, which follows the server's cursor.
   */
  sort?: TaskSort
  /** Only tasks whose id is greater than this. */
  after?: number
  /** Only tasks whose id is less than this. */
  before?: number
}

/**
 * Options of `exportTasks`: which tasks, in which order (of ids: a broken export resumes
 * after the last id it yielded). `timeoutMs` is the longest silence between two chunks of
 * the stream; `retry` resumes a broken export after the last task it yielded.
 */
export type ExportTasksOptions = Omit<ListTasksOptions, 'sort'>

/** Options of `moveTask`: those of a change, and the list to move the task into. */
export interface MoveTaskOptions extends ChangeOptions {
  /** Move it into this list too (the caller must be an editor of both); a task named by `before` or `after` must be in it. */
  listId?: number
}

/** Options of `taskHistory`: one page of a task's history, newest first. */
export interface TaskHistoryOptions extends RequestOptions {
  /** At most this many entries (1 to 2^31−1; the server's default: 100). */
  limit?: number
  /** Only entries whose seq is less than this: the `seq` of the last entry of the page before. */
  before?: number
}

/** Options of `history`: where to start and how many entries to fetch per request. */
export interface HistoryOptions extends RequestOptions {
  /** Only entries whose seq is less than this. */
  before?: number
  /** Entries fetched per request (the `limit` of each page). Default 100. */
  pageSize?: number
}

/**
 * Options of `watch`: where to start and which tasks to follow. `signal` ends the watch;
 * `timeoutMs` (default 30 s) is the longest silence before the connection is taken for
 * dead and opened again (the server sends a keep-alive at least every 15 s); `retry`
 * sets the backoff between reconnections, or `false` for none.
 */
export interface WatchOptions extends RequestOptions {
  /**
   * Start after this seq (a listing's `Tasklane-Seq`): every change since comes first,
   * each task once in its latest state. Default: new changes only.
   */
  after?: number
  /** Only tasks with exactly this tag: a task retagged away comes as `deleted`. */
  tag?: string
  /** Only tasks with this status: a task leaving it comes as `deleted`. */
  status?: TaskStatus
  /** Only tasks of this list (its id): a task moved out of it comes as `deleted`. */
  list?: number
}

/** Options of `tasks`: which tasks to walk through and how many to fetch per request. */
export interface TasksOptions extends ListTasksOptions {
  /** Tasks fetched per request (the `limit` of each page). Default 100. */
  pageSize?: number
}

/** Options of `listLists`: keyset pagination. */
export interface ListListsOptions extends RequestOptions {
  /** Only lists whose id is greater than this. */
  after?: number
}

/** Options of `lists`: where to start and how many lists to fetch per request. */
export interface ListsOptions extends ListListsOptions {
  /** Lists fetched per request (the `limit` of each page). Default 100. */
  pageSize?: number
}
