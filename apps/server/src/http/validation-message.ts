import { schemas } from '@tasklane/contract'
import type { FastifyRequest } from 'fastify'

/** One schema violation as Ajv reports it. */
export interface ValidationIssue {
  keyword: string
  instancePath: string
  params: Record<string, unknown>
  message?: string
}

interface SchemaNode {
  $ref?: string
  $id?: string
  type?: unknown
  description?: string
  properties?: Record<string, SchemaNode>
  required?: string[]
  items?: SchemaNode
  anyOf?: SchemaNode[]
  enum?: unknown[]
  const?: unknown
}

type Part = 'body' | 'params' | 'headers' | 'querystring'

const KINDS: Record<Part, string> = {
  body: 'Field',
  params: 'Path parameter',
  headers: 'Header',
  querystring: 'Query parameter',
}

const named = new Map<string, SchemaNode>(
  schemas.map((schema): [string, SchemaNode] => [schema.$id as string, schema as SchemaNode]),
)

function resolve(schema: SchemaNode | undefined): SchemaNode | undefined {
  let node = schema
  for (let hops = 0; node?.$ref !== undefined && hops < 8; hops++) node = named.get(node.$ref)
  return node
}

function segments(pointer: string): string[] {
  return pointer
    .split('/')
    .slice(1)
    .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'))
}

/** The schema and the value at a JSON pointer of a request part. */
function at(schema: SchemaNode | undefined, value: unknown, pointer: string) {
  let node = resolve(schema)
  let current = value
  for (const key of segments(pointer)) {
    node = resolve(node?.properties?.[key] ?? node?.items)
    current =
      current !== null && typeof current === 'object' && Object.hasOwn(current, key)
        ? (current as Record<string, unknown>)[key]
        : undefined
  }
  return { node, value: current }
}

/** A lone surrogate: a high one not followed by a low one, or a low one not preceded by a high one. */
export const LONE_SURROGATE =
  /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/** A character that shows something: not whitespace, not one of the contract's invisible ones. */
const VISIBLE =
  // biome-ignore lint/suspicious/noMisleadingCharacterClass: U+034F stands alone here, as in the contract's pattern
  /[^\s\u00AD\u034F\u115F\u1160\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\u3164\uFEFF\uFFA0]/

const plural = (n: unknown, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`

/** `"name" and an optional "tag"`: the properties a schema allows, from the contract. */
function allowedProperties(schema: SchemaNode): string {
  const names = Object.keys(schema.properties ?? {}).map((key) =>
    schema.required?.includes(key) ? `"${key}"` : `an optional "${key}"`,
  )
  return names.length < 2
    ? (names[0] ?? 'nothing')
    : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`
}

/** `"asc" or "desc"`: the values a schema allows (an enum, or a union of constants). */
function allowedValues(node: SchemaNode | undefined): string | undefined {
  const values = node?.enum ?? node?.anyOf?.map((branch) => branch.const)
  if (!values || values.length === 0 || values.includes(undefined)) return undefined
  const quoted = values.map((value) => JSON.stringify(value))
  return quoted.length === 1 ? quoted[0] : `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`
}

/**
 * A failed pattern: the text rules every string field shares (no U+0000, no unpaired
 * surrogate, not blank) are named from the value; otherwise the first sentence of the
 * schema's description says what the value must be.
 */
function patternMessage(subject: string, node: SchemaNode | undefined, value: unknown): string {
  if (typeof value === 'string') {
    if (value.includes('\u0000')) return `${subject} must not contain the NUL character (U+0000).`
    if (LONE_SURROGATE.test(value)) return `${subject} must not contain an unpaired surrogate.`
    if (!/\S/.test(value)) return `${subject} must contain at least one non-whitespace character.`
    if (!VISIBLE.test(value)) {
      return `${subject} must contain at least one visible character, not only invisible ones such as U+200B.`
    }
  }
  const rule = /^[^.]*\./.exec(node?.description ?? '')?.[0]
  return rule ? `${subject} must be ${rule}` : `${subject} has an invalid format.`
}

/**
 * The first schema violation of a request as one sentence that names the field or
 * parameter. Everything it says comes from the route's schema in the contract (names,
 * limits, allowed properties, descriptions), so a new field needs no new code here.
 */
export function validationMessage(
  issue: ValidationIssue,
  part: string,
  request: FastifyRequest,
): string {
  const context = (part in KINDS ? part : 'body') as Part
  const kind = KINDS[context]
  const routeSchema = (request.routeOptions.schema as Record<string, SchemaNode> | undefined)?.[
    context
  ]
  const values: Record<Part, unknown> = {
    body: request.body,
    params: request.params,
    headers: request.headers,
    querystring: request.query,
  }
  const { node, value } = at(routeSchema, values[context], issue.instancePath)
  const name = segments(issue.instancePath).join('.')
  const subject =
    name !== '' ? `${kind} "${name}"` : context === 'body' ? 'The request body' : 'The query string'
  const p = issue.params
  switch (issue.keyword) {
    case 'additionalProperties':
      return context === 'body'
        ? `Field "${p.additionalProperty}" is not allowed; ${node?.$id === undefined ? 'the object' : `a ${node.$id}`} has only ${allowedProperties(node ?? {})}.`
        : `Unknown ${kind.toLowerCase()} "${p.additionalProperty}".`
    case 'required':
      return `${kind} "${p.missingProperty}" is required.`
    case 'minProperties': {
      // Only a patch has a least number of properties: `{}` asks for no change at all.
      const names = Object.keys(node?.properties ?? {}).map((key) => `"${key}"`)
      const list =
        names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`
      return `The patch changes nothing: ${subject.charAt(0).toLowerCase()}${subject.slice(1)} must have at least one of ${list}.`
    }
    case 'type': {
      if (name === '' && context === 'body') return 'The request body must be a JSON object.'
      // One of a few values (a status): name them rather than their type.
      const allowed = allowedValues(node)
      if (allowed) return `${subject} must be ${allowed}.`
      return `${subject} must be ${p.type === 'integer' ? 'an integer' : `a ${p.type}`}.`
    }
    case 'minItems':
      return `${subject} must have at least ${plural(p.limit, 'item')}.`
    case 'maxItems':
      return `${subject} must have at most ${plural(p.limit, 'item')}.`
    case 'uniqueItems':
      return `${subject} must not name the same item twice.`
    case 'minLength':
      return `${subject} must be at least ${plural(p.limit, 'character')} long.`
    case 'maxLength':
      return `${subject} must be at most ${plural(p.limit, 'character')} long.`
    case 'minimum':
      return `${subject} must be at least ${p.limit}.`
    case 'maximum':
      return `${subject} must be at most ${p.limit}.`
    case 'pattern':
    case 'format':
      return patternMessage(subject, node, value)
    case 'const':
    case 'enum':
    case 'anyOf': {
      const allowed = allowedValues(node)
      if (allowed) return `${subject} must be ${allowed}.`
      return `${subject} ${issue.message ?? 'is invalid'}.`
    }
    default:
      return `${subject} ${issue.message ?? 'is invalid'}.`
  }
}
