import { ForbiddenError } from './domain-errors.js'
import type { Role } from './rights.js'

/** What a refused change was: the tasks of a list, or the list itself (rename, delete, members). */
export type Changing = 'tasks' | 'list'

const NEEDS: Record<Changing, Role> = { tasks: 'editor', list: 'owner' }

const WHAT: Record<Changing, (listId: number) => string> = {
  tasks: (listId) => `Changing tasks in list ${listId}`,
  list: (listId) => `Renaming or deleting list ${listId}, or managing its members,`,
}

/**
 * Why the caller may not change `changing` in list `listId`, as a 403 that names what is
 * missing: write access (a read-only credential), or the role it needs there.
 */
export function forbiddenIn(
  listId: number,
  changing: Changing,
  { role, readOnly }: { readonly role: Role | undefined; readonly readOnly: boolean },
): ForbiddenError {
  if (readOnly) {
    return new ForbiddenError(
      `This credential is read-only: ${WHAT[changing](listId).replace(/^./, (c) => c.toLowerCase())} needs write access.`,
    )
  }
  const have = role === undefined ? 'no role there' : `the ${role} role there`
  return new ForbiddenError(
    `${WHAT[changing](listId)} needs the ${NEEDS[changing]} role; you have ${have}.`,
  )
}
