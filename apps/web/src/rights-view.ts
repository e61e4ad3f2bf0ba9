import type { Me, Role, TasklaneClient } from '@tasklane/client'
import { ui } from './dom.js'
import { needsToken } from './messages.js'

const RANK: Record<Role, number> = { viewer: 1, editor: 2, owner: 3 }

/**
 * What the caller may do in each list, as `GET /me` says it (read with the credential in
 * use, once a listing succeeded), by the server's own rule: its role in the list (an admin
 * credential: owner of every list), within the credential's lists, and nothing with a
 * read-only credential. Until it is known, nothing may be changed.
 */
export class Rights {
  #me: Me | undefined
  #loading: Promise<void> | undefined
  /** Read with the credential in use (once a read succeeded: asked again after a failure). */
  #read = false

  /** The caller as last read, if it was. */
  get me(): Me | undefined {
    return this.#me
  }

  /** Reads /me (as `load`), unless it was read with the credential in use; resolves once it is known. */
  loadOnce(client: TasklaneClient): Promise<void> {
    if (this.#read) return this.#loading ?? Promise.resolve()
    this.#read = true
    return this.load(client)
  }

  /** Another credential is in use: nothing may be changed until /me is read again. */
  forget(): void {
    this.#read = false
    this.#me = undefined
  }

  /** Reads /me again (a read under way is awaited instead of starting a second one). */
  load(client: TasklaneClient): Promise<void> {
    this.#loading ??= (async () => {
      try {
        this.#me = await client.me()
      } catch (error) {
        // A refused credential leaves nothing allowed; a server not reached, what was known.
        if (needsToken(error)) this.#me = undefined
        this.#read = false
      } finally {
        this.#loading = undefined
      }
    })()
    return this.#loading
  }

  /** The caller's role in `listId` before its credential's read-only narrows it (none: hidden). */
  roleIn(listId: number): Role | undefined {
    const me = this.#me
    if (me === undefined || (me.lists !== undefined && !me.lists.includes(listId))) return undefined
    if (me.role === 'admin') return 'owner'
    return me.roles.find((held) => held.listId === listId)?.role
  }

  /** The caller may change, move and delete the tasks of `listId` (an editor there). */
  canEdit(listId: number): boolean {
    const role = this.roleIn(listId)
    return this.#me?.role !== 'read' && role !== undefined && RANK[role] >= RANK.editor
  }

  /** The caller may create a task in `listId`; none given, in some list (the server picks it). */
  canCreate(listId: number | undefined): boolean {
    const me = this.#me
    if (listId !== undefined) return this.canEdit(listId)
    if (me === undefined || me.role === 'read') return false
    if (me.role === 'admin') return me.lists === undefined || me.lists.length > 0
    return me.roles.some((held) => this.canEdit(held.listId))
  }

  /**
   * Shows the create form only where the caller may create, and says why it is missing when
   * the caller reads but may not change (`listId`: the list chosen; undefined, all of them).
   */
  show(listId: number | undefined): void {
    const me = this.#me
    const creates = this.canCreate(listId)
    if (!creates && ui.createSection.contains(document.activeElement)) ui.tasksHeading.focus()
    ui.createSection.hidden = !creates
    ui.accessNote.textContent =
      me === undefined || creates
        ? ''
        : me.role === 'read'
          ? 'This token can read tasks but not change them.'
          : listId === undefined
            ? me.role !== 'admin' && me.roles.length === 0
              ? 'You are a member of no list yet: an owner of one can add you.'
              : 'You can read these lists but not change them.'
            : 'You can read this list but not change it.'
  }
}
