import { DatabaseUnavailableError } from '../domain/domain-errors.js'

/**
 * `promise`, or a DatabaseUnavailableError once `ms` have passed without it settling: a
 * database that stops answering (a stalled network, a server frozen mid-query) must not
 * hold a request for as long as it stays silent. The work itself goes on until the
 * driver's own timeouts end it. Without `ms`, `promise` as it is.
 */
export function withDeadline<T>(promise: Promise<T>, ms: number | undefined): Promise<T> {
  if (ms === undefined) return promise
  let timer: NodeJS.Timeout | undefined
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new DatabaseUnavailableError({
            cause: new Error(`The database did not answer within ${ms} ms.`),
          }),
        ),
      ms,
    )
  })
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer))
}
