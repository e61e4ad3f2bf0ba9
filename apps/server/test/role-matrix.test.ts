// Every caller against every route of tasks, lists and members: the exact status each gets.
// precedence.test.ts: which answer wins when several apply; a hidden thing's 404 is a
// missing thing's.
import type { List, Task } from '@tasklane/contract'
import { SignJWT } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  ADMIN_TOKEN,
  addMember,
  as,
  type Caller,
  createList,
  createTaskIn,
  expectStatus,
  makeToken,
} from './support/access.js'
import { startServer, type TestServer } from './support/server.js'

const JWT_SECRET = 'the-hs256-secret-of-the-role-matrix-0123456789'

let server: TestServer
let admin: Caller
let other: List

beforeAll(async () => {
  server = await startServer({ settings: { apiToken: ADMIN_TOKEN, authJwtSecret: JWT_SECRET } })
  admin = as(server, ADMIN_TOKEN)
  // A list of bob's own, for the token narrowed to it.
  other = await createList(admin, 'Elsewhere')
  await addMember(admin, other.id, 'bob', 'owner')
})

afterAll(async () => {
  await server?.close()
})

/** A fresh list: alice owns it, bob edits it, carol views it, zed is a viewer to remove. */
async function fixture() {
  const list = await createList(admin, 'Matrix')
  await addMember(admin, list.id, 'alice', 'owner')
  await addMember(admin, list.id, 'bob', 'editor')
  await addMember(admin, list.id, 'carol', 'viewer')
  await addMember(admin, list.id, 'zed', 'viewer')
  const changed = await createTaskIn(admin, list.id, 'to change')
  const deleted = await createTaskIn(admin, list.id, 'to delete')
  return { list, changed, deleted }
}

type Fixture = Awaited<ReturnType<typeof fixture>>

/** The routes, in an order that leaves the destructive ones last. */
const ROUTES: [string, (caller: Caller, f: Fixture) => ReturnType<Caller['get']>][] = [
  ['GET /lists', (c) => c.get('/lists')],
  ['GET /tasks?list=', (c, f) => c.get(`/tasks?list=${f.list.id}`)],
  ['GET /tasks/{id}', (c, f) => c.get(`/tasks/${f.changed.id}`)],
  ['GET /lists/{id}', (c, f) => c.get(`/lists/${f.list.id}`)],
  ['GET /lists/{id}/members', (c, f) => c.get(`/lists/${f.list.id}/members`)],
  ['POST /task', (c, f) => c.post('/task', { name: 'new', listId: f.list.id })],
  ['PATCH /tasks/{id}', (c, f) => c.patch(`/tasks/${f.changed.id}`, { status: 'done' })],
  ['DELETE /tasks/{id}', (c, f) => c.delete(`/tasks/${f.deleted.id}`)],
  ['POST /list', (c) => c.post('/list', { name: 'theirs' })],
  ['PATCH /lists/{id}', (c, f) => c.patch(`/lists/${f.list.id}`, { name: 'renamed' })],
  [
    'PUT /lists/{id}/members/{p}',
    (c, f) => c.put(`/lists/${f.list.id}/members/newbie`, { role: 'viewer' }),
  ],
  ['DELETE /lists/{id}/members/{p}', (c, f) => c.delete(`/lists/${f.list.id}/members/zed`)],
  ['DELETE /lists/{id}', (c, f) => c.delete(`/lists/${f.list.id}`)],
]

const OWNS = [200, 200, 200, 200, 200, 201, 200, 204, 201, 200, 201, 204, 204]
const EDITS = [200, 200, 200, 200, 200, 201, 200, 204, 201, 403, 403, 403, 403]
const VIEWS = [200, 200, 200, 200, 200, 403, 403, 403, 201, 403, 403, 403, 403]
const READS = [200, 200, 200, 200, 200, 403, 403, 403, 403, 403, 403, 403, 403]
const HIDDEN = [200, 404, 404, 404, 404, 404, 404, 404, 201, 404, 404, 404, 404]
const EDITS_NARROWED = [200, 200, 200, 200, 200, 201, 200, 204, 403, 403, 403, 403, 403]
const NARROWED = [200, 404, 404, 404, 404, 404, 404, 404, 403, 404, 404, 404, 404]

const jwt = (sub: string, role: 'read' | 'write') =>
  new SignJWT({ tasklane_role: role })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(sub)
    .setExpirationTime('10m')
    .sign(new TextEncoder().encode(JWT_SECRET))

const token = async (fields: Parameters<typeof makeToken>[1]) =>
  as(server, (await makeToken(server, fields)).token)

const CALLERS: [string, (f: Fixture) => Promise<Caller>, number[]][] = [
  ['the admin (API_TOKEN)', async () => admin, OWNS],
  ['an admin token', () => token({ principal: 'root', role: 'admin' }), OWNS],
  [
    'an admin token narrowed to another list',
    () => token({ principal: 'root', role: 'admin', lists: [other.id] }),
    NARROWED,
  ],
  ['the owner', () => token({ principal: 'alice' }), OWNS],
  ['an editor', () => token({ principal: 'bob' }), EDITS],
  ['a viewer', () => token({ principal: 'carol' }), VIEWS],
  ['a non-member', () => token({ principal: 'dave' }), HIDDEN],
  ["an editor's read-only token", () => token({ principal: 'bob', role: 'read' }), READS],
  [
    "an editor's token narrowed to another list",
    () => token({ principal: 'bob', lists: [other.id] }),
    NARROWED,
  ],
  [
    "an editor's token narrowed to this list",
    (f) => token({ principal: 'bob', lists: [f.list.id] }),
    EDITS_NARROWED,
  ],
  [
    "an editor's JWT with tasklane_role read",
    async () => as(server, await jwt('bob', 'read')),
    READS,
  ],
  [
    "an editor's JWT with tasklane_role write",
    async () => as(server, await jwt('bob', 'write')),
    EDITS,
  ],
]

describe('the role matrix', () => {
  it.each(CALLERS)(
    'answers %s with the statuses its rights give',
    async (_, makeCaller, expected) => {
      const f = await fixture()
      const caller = await makeCaller(f)
      const got: Record<string, number> = {}
      for (const [route, send] of ROUTES) got[route] = (await send(caller, f)).statusCode
      expect(got).toEqual(Object.fromEntries(ROUTES.map(([route], i) => [route, expected[i]])))
    },
  )

  it('answers no credential with 401 on every route', async () => {
    const f = await fixture()
    const nobody = as(server, undefined)
    for (const [route, send] of ROUTES) {
      const response = await send(nobody, f)
      expect({ route, status: response.statusCode }).toEqual({ route, status: 401 })
      expect(response.headers['www-authenticate']).toBe('Bearer realm="tasklane"')
    }
  })

  it('changes nothing for a refused request: the task and the list stay as they were', async () => {
    const f = await fixture()
    const viewer = await token({ principal: 'carol' })
    for (const [, send] of ROUTES.slice(5)) await send(viewer, f)
    expect(expectStatus<Task>(await admin.get(`/tasks/${f.changed.id}`), 200)).toEqual(f.changed)
    expect(expectStatus<Task>(await admin.get(`/tasks/${f.deleted.id}`), 200)).toEqual(f.deleted)
    expect(expectStatus<List>(await admin.get(`/lists/${f.list.id}`), 200)).toEqual(f.list)
    expect(expectStatus(await admin.get(`/lists/${f.list.id}/members`), 200)).toHaveLength(5)
  })
})
