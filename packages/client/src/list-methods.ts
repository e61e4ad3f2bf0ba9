import type {
  ChangeOptions,
  ListListsOptions,
  ListsOptions,
  ReadOptions,
  RequestOptions,
  WriteOptions,
} from './options.js'
import { type PageQuery, pageSizeOf, paginate } from './pagination.js'
import {
  CREATE_LIST_PATH,
  fillPath,
  LISTS_PATH,
  MEMBER_PATH,
  MEMBERS_PATH,
  ONE_LIST_PATH,
} from './paths.js'
import { readOne, sendWrite, write } from './resource-calls.js'
import type { Transport } from './transport.js'
import type { List, ListPatch, Member, NewList, Role } from './types.js'

/** What `putMember` resolves to: the member as it is now, and whether it is new. */
export interface PutMemberResult {
  /** The principal and its role now. */
  member: Member
  /** True when the principal was not a member before (201); false when its role changed or stayed (200). */
  created: boolean
}

/**
 * The methods of lists and their members. A list the caller cannot read answers 404, as
 * if it did not exist; one it reads but may not change answers 403 (an ApiError either way).
 */
export interface ListMethods {
  /**
   * Lists the lists the caller can read (an admin: every list), in ascending id order: at
   * most `limit`, or all of them when omitted.
   * @example
   * const lists = await client.listLists()
   * const nextTen = await client.listLists(10, { after: lists.at(-1)?.id })
   */
  listLists(limit?: number, options?: ListListsOptions): Promise<List[]>
  /**
   * Every list the caller can read, in ascending id order, fetched a page at a time as the
   * loop goes on.
   * @example
   * for await (const list of client.lists()) console.log(list.id, list.name)
   */
  lists(options?: ListsOptions): AsyncGenerator<List, void, undefined>
  /**
   * Creates a list, whose owner the caller becomes, and returns it with its id. Safe to
   * retry, as `createTask` is.
   * @example
   * const groceries = await client.createList({ name: 'Groceries' })
   * await client.createTask({ name: 'Milk', listId: groceries.id })
   */
  createList(list: NewList, options?: WriteOptions): Promise<List>
  /**
   * Reads one list; an ApiError of status 404 when there is none or the caller cannot read
   * it. With `ifNoneMatch` (the version you hold), undefined while it still has it (304).
   * @example
   * const list = await client.getList(1)
   */
  getList(id: number, options?: RequestOptions & { ifNoneMatch?: undefined }): Promise<List>
  /** Reads one list, or resolves to undefined when it still has the version `ifNoneMatch` names (304). */
  getList(id: number, options: ReadOptions): Promise<List | undefined>
  /**
   * Renames a list (its owners and admins) and returns it, its version one higher. With
   * `ifMatch`, only if nobody changed it since that version (else a PreconditionFailedError).
   * @example
   * const renamed = await client.updateList(2, { name: 'Shopping' }, { ifMatch: 1 })
   */
  updateList(id: number, patch: ListPatch, options?: ChangeOptions): Promise<List>
  /**
   * Deletes a list and every task in it (its owners and admins), each task's removal a
   * `deleted` event of the feed. Takes `ifMatch` as `updateList` does.
   * @example
   * await client.deleteList(2, { ifMatch: 3 })
   */
  deleteList(id: number, options?: ChangeOptions): Promise<void>
  /**
   * A list's members and their roles (to anyone who reads the list).
   * @example
   * const members = await client.listMembers(2) // [{ principal: 'alice', role: 'owner' }]
   */
  listMembers(listId: number, options?: RequestOptions): Promise<Member[]>
  /**
   * Gives a principal a role in a list (its owners and admins): makes it a member, or changes
   * its role. An ApiError of status 409 when it would leave the list without an owner.
   * @example
   * const { member, created } = await client.putMember(2, 'bob@example.com', 'editor')
   */
  putMember(
    listId: number,
    principal: string,
    role: Role,
    options?: WriteOptions,
  ): Promise<PutMemberResult>
  /**
   * Removes a member from a list (its owners and admins); an ApiError of status 409 for its
   * last owner, 404 when the principal is no member.
   * @example
   * await client.removeMember(2, 'bob@example.com')
   */
  removeMember(listId: number, principal: string, options?: WriteOptions): Promise<void>
}

/** The list methods of a client, on its transport. */
export function listMethods(transport: Transport): ListMethods {
  const page = (query: PageQuery, call: ListListsOptions | undefined) =>
    transport.send<List[]>({
      method: 'GET',
      path: LISTS_PATH,
      query,
      schema: 'List[]',
      options: call,
    })
  const one = (id: number) => fillPath(ONE_LIST_PATH, id)

  return {
    listLists: async (limit, call) => (await page({ limit, after: call?.after }, call)).data,
    async *lists(call = {}) {
      const pageSize = pageSizeOf(call.pageSize)
      const first = { limit: pageSize, after: call.after }
      const fetchPage = async (query: PageQuery) => {
        const { data, response } = await page(query, call)
        return { items: data, link: response.headers.get('link') }
      }
      yield* paginate(fetchPage, {
        first,
        pageSize,
        after: (last) => ({ ...first, after: last.id }),
      })
    },
    createList: (list, call) =>
      write(
        transport,
        { method: 'POST', path: CREATE_LIST_PATH, body: list, schema: 'List' },
        call,
      ),
    getList: ((id: number, call?: ReadOptions) =>
      readOne(transport, one(id), 'List', call)) as ListMethods['getList'],
    updateList: (id, patch, call) =>
      write(transport, { method: 'PATCH', path: one(id), body: patch, schema: 'List' }, call),
    deleteList: (id, call) => write(transport, { method: 'DELETE', path: one(id) }, call),
    listMembers: async (listId, call) =>
      (
        await transport.send<Member[]>({
          method: 'GET',
          path: fillPath(MEMBERS_PATH, listId),
          schema: 'Member[]',
          options: call,
        })
      ).data,
    putMember: async (listId, principal, role, call) => {
      const path = fillPath(MEMBER_PATH, listId, principal)
      const { data, response } = await sendWrite<Member>(
        transport,
        { method: 'PUT', path, body: { role }, schema: 'Member' },
        call,
      )
      // A replay answers with the first attempt's status, so a retried call still tells.
      return { member: data, created: response.status === 201 }
    },
    // Async, so that a principal no URL can carry rejects rather than throws.
    removeMember: async (listId, principal, call) =>
      write(transport, { method: 'DELETE', path: fillPath(MEMBER_PATH, listId, principal) }, call),
  }
}
