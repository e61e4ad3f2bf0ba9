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

/** If-Match names none of the task's (or list's) current ETag: nothing was changed. */
export class PreconditionFailedError extends DomainError {
  override name = 'PreconditionFailedError'
  constructor(
    readonly id: number,
    /** The current version: its ETag is sent back with the 412. */
    readonly version: number,
    what: 'Task' | 'List' = 'Task',
  ) {
    super(
      `${what} ${id} has changed: its current ETag is "${version}", which If-Match does not name; nothing was changed.`,
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

/** No list has this id, or the caller cannot read it: answered alike (404). */
export class ListNotFoundError extends DomainError {
  override name = 'ListNotFoundError'
  constructor(readonly id: number) {
    super(`List ${id} does not exist.`)
  }
}

/** The caller reads what it asks about but may not do what it asks (403): the message says what is missing. */
export class ForbiddenError extends DomainError {
  override name = 'ForbiddenError'
}

/** The principal is not a member of the list (404). */
export class MemberNotFoundError extends DomainError {
  override name = 'MemberNotFoundError'
  constructor(listId: number, principal: string) {
    super(`"${principal}" is not a member of list ${listId}.`)
  }
}

/** The change would leave a list without an owner (409). */
export class LastOwnerError extends DomainError {
  override name = 'LastOwnerError'
  constructor(listId: number, principal: string) {
    super(
      `"${principal}" is the last owner of list ${listId}; make another member its owner first.`,
    )
  }
}

/** No access token has this id, or it is another principal's (404). */
export class TokenNotFoundError extends DomainError {
  override name = 'TokenNotFoundError'
  constructor(id: number) {
    super(`Token ${id} does not exist.`)
  }
}

/** No webhook has this id, or it is another principal's (404). */
export class WebhookNotFoundError extends DomainError {
  override name = 'WebhookNotFoundError'
  constructor(id: number) {
    super(`Webhook ${id} does not exist.`)
  }
}

/** The server runs without credentials: tokens are switched on by configuration (409). */
export class OpenModeError extends DomainError {
  override name = 'OpenModeError'
  constructor() {
    super(
      'This server runs without credentials (open mode); set API_TOKEN (or AUTH_JWT_SECRET or AUTH_JWKS_URL) to use access tokens.',
    )
  }
}

/** The keys to check a JWT with (AUTH_JWKS_URL) could not be fetched; a retry may work (503). */
export class KeysUnavailableError extends DomainError {
  override name = 'KeysUnavailableError'
  constructor(options?: { cause?: unknown }) {
    super(
      'The keys to check the JWT with could not be fetched; retry the request shortly.',
      options,
    )
  }
}

/** No credential, or one that is wrong, expired or revoked (401). */
export class UnauthenticatedError extends DomainError {
  override name = 'UnauthenticatedError'
  constructor(
    message: string,
    /** Whether a credential was sent (its 401 then says `error="invalid_token"`). */
    readonly sent: boolean,
  ) {
    super(message)
  }
}

/** A request that the schema let through but that its meaning refuses (400): the message names the field. */
export class BadRequestError extends DomainError {
  override name = 'BadRequestError'
}
