// GET, PUT and DELETE /lists/{id}/members[/{principal}]: roles given, changed and taken,
// the last owner kept, a member leaving, and principals of every visible ASCII character.
import type { List, Member } from '@tasklane/contract'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  ADMIN_TOKEN,
  addMember,
  as,
  type Caller,
  createList,
  expectErrorBody,
  expectStatus,
  makeToken,
  principal,
} from './support/access.js'
import { startServer, type TestServer } from './support/server.js'

let server: TestServer
let admin: Caller
let alice: Caller
let bob: Caller

beforeAll(async () => {
  server = await startServer({ settings: { apiToken: ADMIN_TOKEN } })
  admin = as(server, ADMIN_TOKEN)
  alice = await principal(server, 'alice')
  bob = await principal(server, 'bob')
})

afterAll(async () => {
  await server?.close()
})

const seq = (response: { headers: Record<string, unknown> }) =>
  Number(response.headers['tasklane-seq'])

const members = async (caller: Caller, listId: number) =>
  expectStatus<Member[]>(await caller.get(`/lists/${listId}/members`), 200)

describe('PUT /lists/{id}/members/{principal}', () => {
  it('returns 201 for a new member, 200 for a changed role, 200 for the same role (no change)', async () => {
    const list = await createList(alice, 'Team')
    const url = `/lists/${list.id}/members/bob`
    const added = await alice.put(url, { role: 'viewer' })
    expect(expectStatus(added, 201)).toEqual({ principal: 'bob', role: 'viewer' })
    const changed = await alice.put(url, { role: 'editor' })
    expect(expectStatus(changed, 200)).toEqual({ principal: 'bob', role: 'editor' })
    expect(seq(changed)).toBeGreaterThan(seq(added))
    const same = await alice.put(url, { role: 'editor' })
    expect(expectStatus(same, 200)).toEqual({ principal: 'bob', role: 'editor' })
    expect(seq(same)).toBe(seq(changed))
    expect(await members(bob, list.id)).toEqual([
      { principal: 'alice', role: 'owner' },
      { principal: 'bob', role: 'editor' },
    ])
  })

  it('lets the admin manage the members of any list, being none of them', async () => {
    const list = await createList(alice, 'Admin manages')
    expectStatus(await admin.put(`/lists/${list.id}/members/bob`, { role: 'owner' }), 201)
    expect(await members(admin, list.id)).toEqual([
      { principal: 'alice', role: 'owner' },
      { principal: 'bob', role: 'owner' },
    ])
  })

  it.each([
    ['an e-mail address', 'alice@example.com', 'alice@example.com'],
    ['an auth0 subject with |', 'auth0|5f7c8ec7', 'auth0|5f7c8ec7'],
    ['a percent-encoded @ and |', 'carol%40example.com%7Cx', 'carol@example.com|x'],
    ['a percent-encoded slash and percent sign', 'a%2Fb%25c', 'a/b%c'],
    ['a plus sign, kept as it is', 'a+b', 'a+b'],
  ])('takes %s as the principal', async (_, inPath, principal) => {
    const list = await createList(alice, `For ${principal}`)
    const response = await alice.put(`/lists/${list.id}/members/${inPath}`, { role: 'viewer' })
    expect(expectStatus(response, 201)).toEqual({ principal, role: 'viewer' })
    expect(await members(alice, list.id)).toContainEqual({ principal, role: 'viewer' })
    const them = as(server, (await makeToken(server, { principal })).token)
    expect(expectStatus<List[]>(await them.get('/lists'), 200)).toEqual([list])
    expect((await alice.delete(`/lists/${list.id}/members/${inPath}`)).statusCode).toBe(204)
    expect(await members(alice, list.id)).toEqual([{ principal: 'alice', role: 'owner' }])
  })

  it.each([
    ['a space', 'a%20b'],
    ['a non-ASCII character', '%C3%A9'],
    ['a control character', 'a%01'],
  ])('returns 400 naming the principal for one with %s', async (_, inPath) => {
    const list = await createList(alice, 'Strict principals')
    const response = await alice.put(`/lists/${list.id}/members/${inPath}`, { role: 'viewer' })
    expectErrorBody(
      response,
      400,
      'Path parameter "principal" must be 1 to 128 visible ASCII characters.',
    )
  })

  // Fails: app.ts caps every path parameter at 100 characters (MAX_PARAM_LENGTH, a 414),
  // below a principal's 128, which may take three times as many percent-encoded.
  it('takes a principal of 128 characters, percent-encoded, and refuses 129 with 400', async () => {
    const list = await createList(alice, 'Long principals')
    const longest = '@'.repeat(128)
    const inPath = encodeURIComponent(longest)
    const response = await alice.put(`/lists/${list.id}/members/${inPath}`, { role: 'viewer' })
    expect(expectStatus(response, 201)).toEqual({ principal: longest, role: 'viewer' })
    expect((await alice.delete(`/lists/${list.id}/members/${inPath}`)).statusCode).toBe(204)
    expectErrorBody(
      await alice.put(`/lists/${list.id}/members/${'x'.repeat(129)}`, { role: 'viewer' }),
      400,
      'Path parameter "principal" must be at most 128 characters long.',
    )
  })

  it('returns 400 naming the role for one that is not viewer, editor or owner', async () => {
    const list = await createList(alice, 'Strict roles')
    const url = `/lists/${list.id}/members/bob`
    const message = 'Field "role" must be "viewer", "editor" or "owner".'
    expectErrorBody(await alice.put(url, { role: 'admin' }), 400, message)
    expectErrorBody(await alice.put(url, {}), 400, 'Field "role" is required.')
  })

  it('returns 403 naming the owner role to an editor, and write access to a read-only owner', async () => {
    const list = await createList(alice, 'Owners only')
    await addMember(alice, list.id, 'bob', 'editor')
    expectErrorBody(
      await bob.put(`/lists/${list.id}/members/carol`, { role: 'viewer' }),
      403,
      `Renaming or deleting list ${list.id}, or managing its members, needs the owner role; you have the editor role there.`,
    )
    const readOnly = as(
      server,
      (await makeToken(server, { principal: 'alice', role: 'read' })).token,
    )
    expectErrorBody(
      await readOnly.put(`/lists/${list.id}/members/carol`, { role: 'viewer' }),
      403,
      `This credential is read-only: renaming or deleting list ${list.id}, or managing its members, needs write access.`,
    )
  })

  it('returns 404 for a list the caller cannot read, as for a missing one', async () => {
    const list = await createList(alice, 'Hidden')
    expectErrorBody(
      await bob.put(`/lists/${list.id}/members/bob`, { role: 'owner' }),
      404,
      `List ${list.id} does not exist.`,
    )
    expectErrorBody(
      await bob.put('/lists/99999/members/bob', { role: 'owner' }),
      404,
      'List 99999 does not exist.',
    )
    expectErrorBody(
      await bob.get(`/lists/${list.id}/members`),
      404,
      `List ${list.id} does not exist.`,
    )
  })
})

describe('the last owner', () => {
  it('cannot be removed, nor demoted (409); once another owner exists, can be', async () => {
    const list = await createList(alice, 'Owned')
    const message = `"alice" is the last owner of list ${list.id}; make another member its owner first.`
    expectErrorBody(await alice.delete(`/lists/${list.id}/members/alice`), 409, message)
    expectErrorBody(
      await alice.put(`/lists/${list.id}/members/alice`, { role: 'editor' }),
      409,
      message,
    )
    expectErrorBody(await admin.delete(`/lists/${list.id}/members/alice`), 409, message)
    await addMember(alice, list.id, 'bob', 'owner')
    expect(
      expectStatus(await alice.put(`/lists/${list.id}/members/alice`, { role: 'viewer' }), 200),
    ).toEqual({
      principal: 'alice',
      role: 'viewer',
    })
    expectErrorBody(
      await bob.delete(`/lists/${list.id}/members/bob`),
      409,
      `"bob" is the last owner of list ${list.id}; make another member its owner first.`,
    )
  })
})

describe('two owners at once', () => {
  it('lets only one of two owners removing or demoting each other at once succeed: one owner stays', async () => {
    for (let attempt = 0; attempt < 5; attempt++) {
      const list = await createList(alice, `Race ${attempt}`)
      await addMember(alice, list.id, 'bob', 'owner')
      const answers = await Promise.all([
        alice.put(`/lists/${list.id}/members/bob`, { role: 'editor' }),
        bob.delete(`/lists/${list.id}/members/alice`),
      ])
      // The one that lost is refused for what the winner changed: 403 or 404.
      expect(answers.filter((r) => r.statusCode < 300)).toHaveLength(1)
      const owners = (await members(admin, list.id)).filter((m) => m.role === 'owner')
      expect(owners).toHaveLength(1)
    }
  })
})

describe('DELETE /lists/{id}/members/{principal}', () => {
  it('returns 204 and takes the list away from the member at once', async () => {
    const list = await createList(alice, 'Removed from')
    await addMember(alice, list.id, 'bob', 'editor')
    expectStatus(await bob.get(`/lists/${list.id}`), 200)
    const response = await alice.delete(`/lists/${list.id}/members/bob`)
    expect({ status: response.statusCode, body: response.body }).toEqual({ status: 204, body: '' })
    expect(seq(response)).toBeGreaterThan(0)
    expectErrorBody(await bob.get(`/lists/${list.id}`), 404, `List ${list.id} does not exist.`)
    expect(await members(alice, list.id)).toEqual([{ principal: 'alice', role: 'owner' }])
  })

  it('lets a member leave a list it only views', async () => {
    const list = await createList(alice, 'Left')
    await addMember(alice, list.id, 'bob', 'viewer')
    expect((await bob.delete(`/lists/${list.id}/members/bob`)).statusCode).toBe(204)
    expectErrorBody(await bob.get(`/lists/${list.id}`), 404, `List ${list.id} does not exist.`)
  })

  it('returns 403 to a viewer removing another member, 404 for a principal who is not a member', async () => {
    const list = await createList(alice, 'Guarded members')
    await addMember(alice, list.id, 'bob', 'viewer')
    expectErrorBody(
      await bob.delete(`/lists/${list.id}/members/alice`),
      403,
      `Renaming or deleting list ${list.id}, or managing its members, needs the owner role; you have the viewer role there.`,
    )
    expectErrorBody(
      await alice.delete(`/lists/${list.id}/members/zed`),
      404,
      `"zed" is not a member of list ${list.id}.`,
    )
  })

  it('returns 403 to a read-only credential leaving a list: leaving is a change', async () => {
    const list = await createList(alice, 'Read-only stays')
    await addMember(alice, list.id, 'bob', 'editor')
    const readOnly = as(server, (await makeToken(server, { principal: 'bob', role: 'read' })).token)
    expectErrorBody(
      await readOnly.delete(`/lists/${list.id}/members/bob`),
      403,
      `This credential is read-only: renaming or deleting list ${list.id}, or managing its members, needs write access.`,
    )
    expect(await members(alice, list.id)).toContainEqual({ principal: 'bob', role: 'editor' })
  })

  it('replays a removal for a repeat with its Idempotency-Key', async () => {
    const list = await createList(alice, 'Keyed removal')
    await addMember(alice, list.id, 'bob', 'viewer')
    const key = { 'idempotency-key': 'remove-bob' }
    const first = await alice.delete(`/lists/${list.id}/members/bob`, key)
    const again = await alice.delete(`/lists/${list.id}/members/bob`, key)
    expect([first.statusCode, again.statusCode]).toEqual([204, 204])
    expect(again.headers['idempotent-replayed']).toBe('true')
    expect(seq(again)).toBe(seq(first))
  })
})
