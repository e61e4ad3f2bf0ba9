/**
 * The domain's errors: what storage and the task logic throw when a request cannot be
 * served. Each message is one sentence safe to show a caller; the cause (a driver error,
 * say) stays in `cause` for the log. Only plugins/errors.ts knows their HTTP statuses.
 */
export class DomainError extends Error {
  override name = 'DomainError'
}

/** An Idempotency-Key came back with another body than the one it was first used with. */
export class IdempotencyConflictError extends DomainError {
  override name = 'IdempotencyConflictError'
  constructor() {
    super(
      'This Idempotency-Key was already used with a different request (another method, task or body).',
    )
  }
}

/** An Idempotency-Key arrived while a request with the same key is still being written. */
export class KeyInFlightError extends DomainError {
  override name = 'KeyInFlightError'
  constructor() {
    super('A request with this Idempotency-Key is still in progress; retry after it completes.')
  }
}

/** The database cannot serve us right now (unreachable, refusing, closed); a retry may work. */
export class DatabaseUnavailableError extends DomainError {
  override name = 'DatabaseUnavailableError'
  constructor(options?: { cause?: unknown }) {
    super('The database is not reachable; retry the request shortly.', options)
  }
}

/** Too many writes are already waiting for a commit; waiting longer would help nobody. */
export class WriteQueueFullError extends DomainError {
  override name = 'WriteQueueFullError'
  constructor() {
    super('Too many writes are waiting; retry the request shortly.')
  }
}

/** The server is stopping: it takes no new work. */
export class ShuttingDownError extends DomainError {
  override name = 'ShuttingDownError'
  constructor() {
    super('The server is shutting down; retry the request.')
  }
}

/** No task has this id. */
export class TaskNotFoundError extends DomainError {
  override name = 'TaskNotFoundError'
  constructor(readonly id: number) {
    super(`Task ${id} does not exist.`)
  }
}

/** If-Match names none of the task's current ETag: nothing was changed. */
export class PreconditionFailedError extends DomainError {
  override name = 'PreconditionFailedError'
  constructor(
    readonly id: number,
    /** The task's current version: its ETag is sent back with the 412. */
    readonly version: number,
  ) {
    super(
      `Task ${id} has changed: its current ETag is "${version}", which If-Match does not name; nothing was changed.`,
    )
  }
}

/** The change feed has as many subscribers as this instance takes (MAX_SUBSCRIBERS). */
export class TooManySubscribersError extends DomainError {
  override name = 'TooManySubscribersError'
  constructor(readonly limit: number) {
    super(`The change feed already has ${limit} subscribers, its limit; retry shortly.`)
  }
}

/** As many listings are being streamed as this instance sends at once (MAX_STREAMS). */
export class TooManyStreamsError extends DomainError {
  override name = 'TooManyStreamsError'
  constructor(readonly limit: number) {
    super(
      `${limit} listings are already being streamed, this instance's limit; retry shortly or ask for a page (limit=1000).`,
    )
  }
}
