import { type TSchema, Type } from '@sinclair/typebox'
import { Value, type ValueError, ValueErrorType } from '@sinclair/typebox/value'
import {
  CreatedToken,
  CreatedWebhook,
  DeletedTask,
  HistoryEntry,
  List,
  Me,
  Member,
  NewTask,
  Task,
  Token,
  Webhook,
  WebhookDelivery,
} from '@tasklane/contract'
import type { ResponseValidator, SchemaName, ValidationIssue } from './response-validator.js'

export type { ResponseValidator, SchemaName, ValidationIssue } from './response-validator.js'

/** Each schema a response is checked against, by the name the client gives it. */
const SCHEMAS: Record<SchemaName, TSchema> = {
  Task,
  'Task[]': Type.Array(Task),
  DeletedTask,
  List,
  'List[]': Type.Array(List),
  Member,
  'Member[]': Type.Array(Member),
  'Token[]': Type.Array(Token),
  CreatedToken,
  Me,
  'HistoryEntry[]': Type.Array(HistoryEntry),
  Webhook,
  'Webhook[]': Type.Array(Webhook),
  CreatedWebhook,
  'WebhookDelivery[]': Type.Array(WebhookDelivery),
}

// A lone surrogate: a high one not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/** `/3/name` → `[3].name`: how a JavaScript reader would reach the value. */
function fieldPath(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce(
      (path, key) => (/^\d+$/.test(key) ? `${path}[${key}]` : path === '' ? key : `${path}.${key}`),
      '',
    )
}

function describe(error: ValueError): string {
  const { schema, value } = error
  const max = (schema as { maxLength?: number }).maxLength
  switch (error.type) {
    case ValueErrorType.ObjectRequiredProperty:
      return 'is missing'
    case ValueErrorType.ObjectAdditionalProperties:
      return 'is not a property the contract allows'
    case ValueErrorType.Integer:
      return 'must be an integer'
    case ValueErrorType.String:
      return 'must be a string'
    case ValueErrorType.Object:
      return 'must be an object'
    case ValueErrorType.Array:
      return 'must be an array'
    case ValueErrorType.StringMinLength:
      return `must be at least ${(schema as { minLength?: number }).minLength} character(s) long`
    case ValueErrorType.StringMaxLength:
      return `must be at most ${max} characters long`
    case ValueErrorType.IntegerMinimum:
      return `must be at least ${(schema as { minimum?: number }).minimum}`
    case ValueErrorType.IntegerMaximum:
      return `must be at most ${(schema as { maximum?: number }).maximum}`
    case ValueErrorType.StringPattern:
      if (typeof value === 'string') {
        if (value.includes('\u0000')) return 'must not contain U+0000'
        if (!/\S/.test(value)) return 'must contain a non-whitespace character'
        if (max !== undefined && [...value].length > max) {
          return `must be at most ${max} characters long`
        }
      }
      return 'has an invalid format'
    default:
      return error.message.replace(/^Expected /, 'must be ').replace(/\.$/, '')
  }
}

/**
 * Where `value` holds a string with an unpaired surrogate: no pattern every validator reads
 * alike can name one, so the contract leaves it to the server (a 400 for any string of a
 * body), and this check to the client.
 */
function surrogatePath(value: unknown, path: string): string | undefined {
  if (typeof value === 'string') return LONE_SURROGATE.test(value) ? path : undefined
  if (typeof value !== 'object' || value === null) return undefined
  for (const [key, item] of Object.entries(value)) {
    const found = surrogatePath(
      item,
      Array.isArray(value) ? `${path}[${key}]` : path === '' ? key : `${path}.${key}`,
    )
    if (found !== undefined) return found
  }
  return undefined
}

/**
 * The first place `value` departs from `schema`, or undefined when it fits. `maxLength` is
 * counted in code points, as JSON Schema means it (TypeBox counts UTF-16 units, so 200 emoji
 * would look like 400 characters); the contract's patterns bound the code points themselves.
 * A `format` is left to the pattern beside it.
 */
function firstIssue(schema: TSchema, value: unknown): ValidationIssue | undefined {
  for (const error of Value.Errors(schema, value)) {
    // TypeBox knows no format until one is registered, which would change the app's own
    // TypeBox; the contract's timestamps carry a pattern that checks their form anyway.
    if (error.type === ValueErrorType.StringFormatUnknown) continue
    if (
      error.type === ValueErrorType.StringMaxLength &&
      typeof error.value === 'string' &&
      [...error.value].length <= Number(error.schema.maxLength)
    ) {
      continue
    }
    return { path: fieldPath(error.path), message: describe(error) }
  }
  const path = surrogatePath(value, '')
  return path === undefined
    ? undefined
    : { path, message: 'must not contain an unpaired surrogate' }
}

/**
 * Checks a value against the contract's Task schema.
 * @example
 * validateTask({ id: 0, name: 'Write docs' }) // { path: 'id', message: 'must be at least 1' }
 */
export function validateTask(value: unknown): ValidationIssue | undefined {
  return firstIssue(Task, value)
}

/**
 * Checks a value against the contract's NewTask schema, e.g. a form's input before sending it.
 * @example
 * validateNewTask({ name: 'Write docs', done: true }) // { path: 'done', message: 'is not a property the contract allows' }
 */
export function validateNewTask(value: unknown): ValidationIssue | undefined {
  return firstIssue(NewTask, value)
}

/**
 * Checks every response body against the contract; pass it as the client's `validate`
 * option. A mismatch rejects the call with a ValidationError naming the field.
 * @example
 * import { createClient } from '@tasklane/client'
 * import { validateResponses } from '@tasklane/client/validate'
 *
 * const client = createClient({ baseUrl: 'http://127.0.0.1:3000', validate: validateResponses })
 */
export const validateResponses: ResponseValidator = (schema, body) =>
  firstIssue(SCHEMAS[schema], body)
