import { newIdempotencyKey } from './idempotency-key.js'
import type { ChangeOptions, ReadOptions } from './options.js'
import type { SchemaName } from './response-validator.js'
import type { JsonRequest, JsonResponse, Transport } from './transport.js'

/** A version as an entity tag (`3` → `"3"`); a string is taken as the header's value itself. */
const etag = (value: number | string | undefined) =>
  typeof value === 'number' ? `"${value}"` : value

/**
 * A create, change or delete, its response with it: with retries on and no key of the
 * caller's, a key of its own for each call, so that a retry is the server's replay of the
 * first attempt, never a second change; `ifMatch` as If-Match.
 */
export function sendWrite<T>(
  transport: Transport,
  request: Omit<JsonRequest, 'options'>,
  call: ChangeOptions | undefined,
): Promise<JsonResponse<T>> {
  let key = call?.idempotencyKey
  if (key === undefined && transport.retrySettings(call?.retry).maxRetries > 0) {
    key = newIdempotencyKey()
  }
  const ifMatch = etag(call?.ifMatch)
  return transport.send<T>({
    ...request,
    headers: ifMatch === undefined ? {} : { 'if-match': ifMatch },
    idempotencyKey: key,
    options: call,
  })
}

/** A create, change or delete (see `sendWrite`): its parsed body, none for a 204. */
export async function write<T>(
  transport: Transport,
  request: Omit<JsonRequest, 'options'>,
  call: ChangeOptions | undefined,
): Promise<T> {
  return (await sendWrite<T>(transport, request, call)).data
}

/** A GET of one resource; with `ifNoneMatch`, undefined when the server answers 304 (no body). */
export async function readOne<T>(
  transport: Transport,
  path: string,
  schema: SchemaName,
  call: ReadOptions | undefined,
): Promise<T | undefined> {
  const ifNoneMatch = etag(call?.ifNoneMatch)
  return (
    await transport.send<T | undefined>({
      method: 'GET',
      path,
      headers: ifNoneMatch === undefined ? {} : { 'if-none-match': ifNoneMatch },
      schema,
      options: call,
    })
  ).data
}
