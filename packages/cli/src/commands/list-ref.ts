import type { StringFlag } from '../command-line/spec.js'
import type { Context } from '../context.js'
import { UsageError } from '../usage-error.js'

/** `--list LIST`: a list by its id (digits) or by its name. */
export const listFlag = {
  type: 'string',
  value: 'LIST',
  help: "A list by id or by name ('Groceries'); a name is looked up among your lists.",
} as const satisfies StringFlag

/** Decimal digits: an id, never a name. */
const DIGITS = /^\d+$/

/**
 * The id `ref` is, when it is all digits (1 to 2^53−1, else a usage error naming `what`,
 * `--list` or `<list>`); else undefined.
 */
function idOf(ref: string, command: string, what: string): number | undefined {
  if (!DIGITS.test(ref)) return undefined
  const id = Number(ref)
  if (id >= 1 && Number.isSafeInteger(id)) return id
  throw new UsageError(
    `${what} must be a list's id (1 to ${Number.MAX_SAFE_INTEGER}) or its name, got '${ref}'.`,
    command,
  )
}

/**
 * The ids of the lists `refs` name, in their order: digits an id, anything else a name looked up
 * with GET /lists (once, however many names). A name no list has is a usage error naming
 * it; a name several lists have is one listing their ids.
 */
export async function resolveLists(
  refs: readonly string[],
  context: Context,
  command: string,
  what = '--list',
): Promise<number[]> {
  const names = refs.filter((ref) => idOf(ref, command, what) === undefined)
  const byName = new Map<string, number[]>(names.map((name) => [name, []]))
  if (names.length > 0) {
    for await (const list of context.client.lists({ signal: context.signal })) {
      byName.get(list.name)?.push(list.id)
    }
  }
  return refs.map((ref) => {
    const ids = byName.get(ref)
    if (ids === undefined) return Number(ref)
    const [id, ...others] = ids
    if (id === undefined) throw new UsageError(`No list is named '${ref}'.`, command)
    if (others.length > 0) {
      throw new UsageError(
        `${ids.length} lists are named '${ref}' (ids ${ids.join(', ')}): give its id.`,
        command,
      )
    }
    return id
  })
}

/** The id of the list `ref` names (see resolveLists); undefined when none is given. */
export async function resolveList(
  ref: string | undefined,
  context: Context,
  command: string,
  what = '--list',
): Promise<number | undefined> {
  return ref === undefined ? undefined : (await resolveLists([ref], context, command, what))[0]
}

/** The id of the list that the argument `<list>` names: its id, or its name. */
export async function listArgument(ref: string, context: Context, command: string) {
  return (await resolveLists([ref], context, command, '<list>'))[0] as number
}

/** The argument `<list>`: a list by its id or by its name. */
export const listArg = { name: 'list', type: 'string', label: '<list>' } as const
