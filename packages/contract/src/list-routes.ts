// The routes of lists and their members, as data (see routes.ts).
import { Type } from '@sinclair/typebox'
import { ErrorBody } from './error.js'
import {
  List,
  ListListsQuery,
  ListParams,
  ListPatch,
  Member,
  MemberParams,
  MemberRole,
  NewList,
} from './list.js'
import { ChangeTaskHeaders, CreateTaskHeaders, GetTaskHeaders } from './parameters.js'
import { PATCH_MEDIA_TYPES, type RouteDefinition } from './route-definition.js'
import { ref } from './task.js'

const errorRef = ref(ErrorBody, { description: 'Unexpected error' })

const KEY_ERRORS = {
  409: 'A request with the same Idempotency-Key is still in flight.',
  422: 'The Idempotency-Key was used before with a different request.',
} as const

/** The routes of lists and members, keyed by operationId. */
export const listRoutes = {
  getLists: {
    operationId: 'getLists',
    method: 'GET',
    path: '/lists',
    tags: ['lists'],
    summary: 'List the lists the caller can read, in ascending id order.',
    description:
      'An admin reads every list. A full page (limit) carries a Link header to the next one.',
    querystring: ListListsQuery,
    response: { 200: Type.Array(ref(List), { description: 'Success' }), default: errorRef },
    responseHeaders: { 200: ['Link', 'Tasklane-Seq'] },
    errors: { 400: 'A query parameter is unknown, repeated, empty or out of its range.' },
  },
  createList: {
    operationId: 'createList',
    method: 'POST',
    path: '/list',
    tags: ['list'],
    summary: 'Create a list; its creator becomes its owner.',
    description:
      'A read-only credential, or one limited to some lists, cannot create lists (403). With an Idempotency-Key, a repeat of the same request answers the first response.',
    headers: CreateTaskHeaders,
    body: ref(NewList),
    response: { 201: ref(List, { description: 'Created' }), default: errorRef },
    responseHeaders: { 201: ['Location', 'ETag', 'Tasklane-Seq', 'Idempotent-Replayed'] },
    errors: {
      400: 'The body is not a valid NewList (the message names the field), or the Idempotency-Key is not valid.',
      403: 'The credential is read-only, or limited to some lists.',
      413: 'The body is larger than 64 KiB.',
      415: 'The body is not application/json.',
      ...KEY_ERRORS,
    },
  },
  getList: {
    operationId: 'getList',
    method: 'GET',
    path: '/lists/{id}',
    tags: ['list'],
    summary: 'Read one list by id.',
    description: 'With If-None-Match naming the current ETag, 304 Not Modified without a body.',
    params: ListParams,
    headers: GetTaskHeaders,
    response: {
      200: ref(List, { description: 'Success' }),
      304: Type.Null({ description: 'Not Modified: the list still has an ETag of If-None-Match.' }),
      default: errorRef,
    },
    responseHeaders: { 200: ['ETag', 'Tasklane-Seq'], 304: ['ETag', 'Tasklane-Seq'] },
    errors: {
      400: 'The id is not a whole number from 1 to 2^53−1, or If-None-Match is not valid.',
      404: 'No list has this id, or the caller cannot read it.',
    },
  },
  updateList: {
    operationId: 'updateList',
    method: 'PATCH',
    path: '/lists/{id}',
    tags: ['list'],
    summary: 'Rename a list (its owners and admins).',
    description:
      'A JSON Merge Patch of name, as application/merge-patch+json or application/json. With If-Match, only if the list still has one of its ETags (else 412). `{}` is a 400; a name equal to the current one answers the list as it is (same version).',
    params: ListParams,
    headers: ChangeTaskHeaders,
    body: ref(ListPatch),
    consumes: PATCH_MEDIA_TYPES,
    response: {
      200: ref(List, { description: 'Success: the list after the change' }),
      default: errorRef,
    },
    responseHeaders: { 200: ['ETag', 'Tasklane-Seq', 'Idempotent-Replayed'] },
    errors: {
      400: 'The id, the patch, If-Match or the Idempotency-Key is not valid, or the patch is empty.',
      403: 'The caller reads the list but is not its owner (or its credential is read-only).',
      404: 'No list has this id, or the caller cannot read it.',
      412: "If-Match does not name the list's current ETag (sent back in ETag); nothing changed.",
      413: 'The body is larger than 64 KiB.',
      415: 'The body is not application/merge-patch+json or application/json.',
      ...KEY_ERRORS,
    },
  },
  deleteList: {
    operationId: 'deleteList',
    method: 'DELETE',
    path: '/lists/{id}',
    tags: ['list'],
    summary: 'Delete a list and every task in it (its owners and admins).',
    description:
      "Each task's removal is a change of its own (a seq, a deleted event). With If-Match, only if the list still has one of its ETags (else 412).",
    params: ListParams,
    headers: ChangeTaskHeaders,
    response: { 204: Type.Null({ description: 'Deleted' }), default: errorRef },
    responseHeaders: { 204: ['Tasklane-Seq', 'Idempotent-Replayed'] },
    errors: {
      400: 'The id, If-Match or the Idempotency-Key is not valid.',
      403: 'The caller reads the list but is not its owner (or its credential is read-only).',
      404: 'No list has this id, or the caller cannot read it.',
      412: "If-Match does not name the list's current ETag (sent back in ETag); nothing changed.",
      ...KEY_ERRORS,
    },
  },
  getMembers: {
    operationId: 'getMembers',
    method: 'GET',
    path: '/lists/{id}/members',
    tags: ['list'],
    summary: "List a list's members and their roles (to whoever reads the list).",
    description: 'By principal. An admin acts as the owner of every list without being a member.',
    params: ListParams,
    response: { 200: Type.Array(ref(Member), { description: 'Success' }), default: errorRef },
    responseHeaders: { 200: ['Tasklane-Seq'] },
    errors: {
      400: 'The id is not a whole number from 1 to 2^53−1.',
      404: 'No list has this id, or the caller cannot read it.',
    },
  },
  putMember: {
    operationId: 'putMember',
    method: 'PUT',
    path: '/lists/{id}/members/{principal}',
    tags: ['list'],
    summary: 'Give a principal a role in a list (its owners and admins): 201 new, 200 changed.',
    description:
      "A new member's open change feeds start with the list at once; changing the last owner's role is a 409.",
    params: MemberParams,
    headers: CreateTaskHeaders,
    body: ref(MemberRole),
    response: {
      200: ref(Member, { description: 'The role changed (or was already this one)' }),
      201: ref(Member, { description: 'A new member' }),
      default: errorRef,
    },
    responseHeaders: {
      200: ['Tasklane-Seq', 'Idempotent-Replayed'],
      201: ['Tasklane-Seq', 'Idempotent-Replayed'],
    },
    errors: {
      400: 'The id, the principal, the role or the Idempotency-Key is not valid.',
      403: 'The caller reads the list but is not its owner (or its credential is read-only).',
      404: 'No list has this id, or the caller cannot read it.',
      409: 'The change would leave the list without an owner, or a request with the same Idempotency-Key is still in flight.',
      413: 'The body is larger than 64 KiB.',
      415: 'The body is not application/json.',
      422: KEY_ERRORS[422],
    },
  },
  deleteMember: {
    operationId: 'deleteMember',
    method: 'DELETE',
    path: '/lists/{id}/members/{principal}',
    tags: ['list'],
    summary: 'Remove a member from a list (its owners and admins).',
    description:
      "The member's open change feeds lose the list at once: nothing of it reaches them after the removal is committed.",
    params: MemberParams,
    headers: CreateTaskHeaders,
    response: { 204: Type.Null({ description: 'Removed' }), default: errorRef },
    responseHeaders: { 204: ['Tasklane-Seq', 'Idempotent-Replayed'] },
    errors: {
      400: 'The id, the principal or the Idempotency-Key is not valid.',
      403: 'The caller reads the list but is not its owner (or its credential is read-only).',
      404: 'No list has this id or the caller cannot read it, or the principal is not a member.',
      409: 'The principal is the last owner, or a request with the same Idempotency-Key is still in flight.',
      422: KEY_ERRORS[422],
    },
  },
} as const satisfies Record<string, RouteDefinition>
