import type { AccessMethods } from './access-methods.js'
import type { HistoryMethods } from './history-methods.js'
import type { ListMethods } from './list-methods.js'
import type {
  ChangeOptions,
  ClientOptions,
  ExportTasksOptions,
  ListTasksOptions,
  MoveTaskOptions,
  ReadOptions,
  RequestOptions,
  TasksOptions,
  WatchOptions,
  WriteOptions,
} from './options.js'
import type { MoveTarget, NewTask, Task, TaskEvent, TaskPatch } from './types.js'
import type { WebhookMethods } from './webhook-methods.js'

/** A typed tasklane client: tasks and their change feed here; history, lists, access and webhooks in the interfaces it extends. */
export interface TasklaneClient extends HistoryMethods, ListMethods, AccessMethods, WebhookMethods {
  /** The options the client was created with (read by `LiveTasks` from `@tasklane/client/live`). */
  readonly options: Readonly<ClientOptions>
  /**
   * Lists tasks in ascending id order (`order: 'desc'`: newest first), or by `sort` (`due`,
   * `priority`, `position`, `updated`): at most `limit`, or all of them when omitted; `tag`,
   * `status`, `list`, `priority`, `dueFrom`/`dueTo` (in `tz`), `overdue` and `q` (words in
   * name and notes) filter them. To page through a sorted listing, use `tasks()`.
   * @example
   * const firstFive = await client.listTasks(5)
   * const nextFive = await client.listTasks(5, { after: firstFive.at(-1)?.id })
   * const newestOpen = await client.listTasks(5, { order: 'desc', status: 'open' })
   * const dueFirst = await client.listTasks(10, { sort: 'due', status: 'open' })
   * const late = await client.listTasks(undefined, { overdue: true, tz: 'Europe/Paris' })
   * const found = await client.listTasks(20, { q: 'release not' })
   */
  listTasks(limit?: number, options?: ListTasksOptions): Promise<Task[]>
  /**
   * Creates a task (open unless `status` says `done`) and returns it with its id. Safe to
   * retry: every attempt of one call carries the same Idempotency-Key.
   * @example
   * const task = await client.createTask({ name: 'Write docs', tag: 'docs' })
   */
  createTask(task: NewTask, options?: WriteOptions): Promise<Task>
  /**
   * Reads one task; rejects with an ApiError of status 404 when it does not exist (or was
   * deleted). With `ifNoneMatch` (the version you hold), resolves to undefined when the
   * task still has it (304 Not Modified).
   * @example
   * let task = await client.getTask(1)
   * task = (await client.getTask(1, { ifNoneMatch: task.version })) ?? task
   */
  getTask(id: number, options?: RequestOptions & { ifNoneMatch?: undefined }): Promise<Task>
  /** Reads one task, or resolves to undefined when it still has the version `ifNoneMatch` names (304). */
  getTask(id: number, options: ReadOptions): Promise<Task | undefined>
  /**
   * Changes a task (a JSON Merge Patch: `tag: null` removes the tag) and returns it as it
   * is now; its ETag is `"<version>"`. With `ifMatch`, only if nobody changed it since that
   * version: else a PreconditionFailedError, and nothing changes. Safe to retry: every
   * attempt of one call carries the same Idempotency-Key, so a retry is a replay.
   * @example
   * const renamed = await client.updateTask(7, { name: 'Ship it', tag: null }, { ifMatch: 3 })
   */
  updateTask(id: number, patch: TaskPatch, options?: ChangeOptions): Promise<Task>
  /**
   * Marks a task done (`updateTask(id, { status: 'done' })`).
   * @example
   * await client.completeTask(7, { ifMatch: task.version })
   */
  completeTask(id: number, options?: ChangeOptions): Promise<Task>
  /**
   * Opens a done task again (`updateTask(id, { status: 'open' })`).
   * @example
   * await client.reopenTask(7)
   */
  reopenTask(id: number, options?: ChangeOptions): Promise<Task>
  /**
   * Deletes a task for good; rejects with an ApiError of status 404 when there is none.
   * With `ifMatch`, only if nobody changed it since that version (else a
   * PreconditionFailedError). Safe to retry, as `updateTask` is.
   * @example
   * await client.deleteTask(7, { ifMatch: 4 })
   */
  deleteTask(id: number, options?: ChangeOptions): Promise<void>
  /**
   * Moves a task in its list's manual order (the `position` sort): just before or after
   * another task, or to the top or bottom; with `listId`, into that list too. Resolves to the
   * task as it is now. Takes `ifMatch` and is safe to retry, as `updateTask` is.
   * @example
   * await client.moveTask(7, { before: 3 })
   * await client.moveTask(7, 'top', { ifMatch: 2 })
   * await client.moveTask(7, 'bottom', { listId: 2 })
   */
  moveTask(id: number, to: MoveTarget, options?: MoveTaskOptions): Promise<Task>
  /**
   * Every matching task in `sort` order (by default ascending id; newest first with
   * `order: 'desc'`), fetched a page at a time as the loop goes on: each next page is the
   * one the server's Link header names, so a walk over any sort stays exact.
   * @example
   * for await (const task of client.tasks({ tag: 'docs', pageSize: 50 })) console.log(task.name)
   * for await (const task of client.tasks({ sort: 'priority', order: 'desc' })) console.log(task.priority, task.name)
   */
  tasks(options?: TasksOptions): AsyncGenerator<Task, void, undefined>
  /**
   * Every matching task, streamed in one response (NDJSON) rather than page by page; a
   * broken download resumes after the last task yielded.
   * @example
   * for await (const task of client.exportTasks({ order: 'desc' })) console.log(task.id)
   */
  exportTasks(options?: ExportTasksOptions): AsyncGenerator<Task, void, undefined>
  /**
   * Follows the change feed: every change once, in seq order (`created` and `updated`
   * with the task, `deleted` with its id and version), reconnecting with backoff after a
   * failure and resuming after the last seq yielded. Runs until `signal` aborts, then ends
   * without an error. A `reset` says that the caller gained or lost a list: the events
   * cannot tell which tasks it reads now, so list again (the watch goes on after its seq;
   * `LiveTasks` does all this itself).
   * @example
   * const stop = new AbortController()
   * for await (const event of client.watch({ tag: 'docs', signal: stop.signal })) {
   *   if (event.type === 'reset') console.log('list again')
   *   else console.log(event.type, event.task.id)
   * }
   */
  watch(options?: WatchOptions): AsyncGenerator<TaskEvent, void, undefined>
}
