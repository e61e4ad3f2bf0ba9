// Lists and their members: the unit of sharing. Every task is in one list; a principal's
// role in a list (viewer, editor, owner) says what it may do there.
import { type Static, Type } from '@sinclair/typebox'
import { ListIdOf, MAX_LIMIT, MAX_TASK_ID, PrincipalOf, TaskName, Timestamp } from './task.js'

/** A list's name: the rules of a task's name (1–200 code points, not blank). */
export const ListName = Type.Unsafe<string>({
  ...TaskName,
  description: 'Name of the list: 1–200 characters, not only whitespace.',
  examples: ['Groceries'],
})

/** A stored list, as every list operation returns it. */
export const List = Type.Object(
  {
    id: ListIdOf('Identifier of the list, assigned by the server.'),
    name: ListName,
    version: Type.Integer({
      minimum: 1,
      maximum: MAX_TASK_ID,
      format: 'int64',
      description: 'Version of the list: 1 when created, one more on every rename.',
      examples: [1],
    }),
    createdAt: Timestamp('When the list was created (RFC 3339, UTC, milliseconds).'),
    updatedAt: Timestamp('When the list last changed (RFC 3339, UTC, milliseconds).'),
  },
  { $id: 'List', additionalProperties: false, description: 'A list of tasks.' },
)
/** A stored list. */
export type List = Static<typeof List>

/** The body of POST /list. */
export const NewList = Type.Object(
  { name: ListName },
  {
    $id: 'NewList',
    additionalProperties: false,
    description: 'A list to create; its creator becomes its owner.',
  },
)
/** The body of POST /list. */
export type NewList = Static<typeof NewList>

/** The body of PATCH /lists/{id}: a JSON Merge Patch of the name. */
export const ListPatch = Type.Object(
  { name: Type.Optional(ListName) },
  {
    $id: 'ListPatch',
    additionalProperties: false,
    minProperties: 1,
    description: 'A JSON Merge Patch of a list: its new name.',
  },
)
/** The body of PATCH /lists/{id}. */
export type ListPatch = Static<typeof ListPatch>

/** A role in a list: viewer reads; editor also changes its tasks; owner also manages it. */
export const Role = Type.Union(
  [Type.Literal('viewer'), Type.Literal('editor'), Type.Literal('owner')],
  {
    description:
      'viewer reads the list and its tasks; editor also creates, changes and deletes its tasks; owner also renames and deletes the list and manages its members.',
    examples: ['editor'],
  },
)
/** A role in a list. */
export type Role = Static<typeof Role>

/** A member of a list: a principal and its role. */
export const Member = Type.Object(
  { principal: PrincipalOf('The member.'), role: Role },
  { $id: 'Member', additionalProperties: false, description: 'A member of a list.' },
)
/** A member of a list. */
export type Member = Static<typeof Member>

/** The body of PUT /lists/{id}/members/{principal}. */
export const MemberRole = Type.Object(
  { role: Role },
  { $id: 'MemberRole', additionalProperties: false, description: "A member's role." },
)
/** The body of PUT /lists/{id}/members/{principal}. */
export type MemberRole = Static<typeof MemberRole>

/** Path parameters of /lists/{id} and its members. */
export const ListParams = Type.Object(
  { id: ListIdOf('Identifier of the list.') },
  { additionalProperties: false },
)
/** Path parameters of /lists/{id}. */
export type ListParams = Static<typeof ListParams>

/** Path parameters of /lists/{id}/members/{principal}. */
export const MemberParams = Type.Object(
  {
    id: ListIdOf('Identifier of the list.'),
    // The first sentence is what a 400 says the value must be.
    principal: PrincipalOf('1 to 128 visible ASCII characters. The member.'),
  },
  { additionalProperties: false },
)
/** Path parameters of /lists/{id}/members/{principal}. */
export type MemberParams = Static<typeof MemberParams>

/** Query string of GET /lists: pages by id. */
export const ListListsQuery = Type.Object(
  {
    limit: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: MAX_LIMIT,
        format: 'int32',
        description: 'Maximum number of lists to return. Omitted: all of them.',
      }),
    ),
    after: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: MAX_TASK_ID,
        format: 'int64',
        description: 'Return only lists whose id is greater than this (keyset pagination).',
      }),
    ),
  },
  { additionalProperties: false },
)
/** Query string of GET /lists. */
export type ListListsQuery = Static<typeof ListListsQuery>
