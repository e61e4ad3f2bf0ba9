import type * as contract from '@tasklane/contract'

// Spelled out rather than re-exported from @tasklane/contract: the contract's types are
// TypeBox's `Static<…>`, so re-exporting them would make every user of the default entry
// install TypeBox for its declarations. The checks at the end keep these equal to the
// contract's, so a change to a schema still breaks this build.

/** A stored task. A task without a tag has no `tag` key. */
export interface Task {
  /** Identifier of the task, assigned by the server: 1 to 2^53−1, ascending in creation order. */
  id: number
  /** Name of the task: 1–200 characters, not only whitespace. */
  name: string
  /** Optional tag: 1–64 characters, not only whitespace. */
  tag?: string
}

/** A task to create: the body of `createTask`. */
export interface NewTask {
  /** Name of the task: 1–200 characters, not only whitespace. */
  name: string
  /** Optional tag: 1–64 characters, not only whitespace. */
  tag?: string
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
  Expect<Same<ErrorBody, contract.ErrorBody>>,
]
