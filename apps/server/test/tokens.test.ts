// POST, GET and DELETE /tokens: a secret shown once and stored only as a digest, what a
// non-admin may make, revocation and expiry on the next request, open mode, and
// Idempotency-Keys per principal. tokens-instances.test.ts: two instances, one database.
import { createHash } from 'node:crypto'
import type { CreatedToken, Task, Token } from '@tasklane/contract'
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

const TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/
const INVALID = 'The bearer token in the Authorization header is not valid.'

let server: TestServer
const log: Record<string, unknown>[] = []
let admin: Caller
let alice: Caller

beforeAll(async () => {
  server = await startServer({ settings: { apiToken: ADMIN_TOKEN }, log })
  admin = as(server, ADMIN_TOKEN)
  alice = await principal(server, 'alice')
})

afterAll(async () => {
  await server?.close()
})

/** Asserts the 401 of a credential that was sent but does not work. */
function expectInvalid(response: Awaited<ReturnType<Caller['get']>>, message = INVALID) {
  expectErrorBody(response, 401, message)
  expect(response.headers['www-authenticate']).toBe(
    'Bearer realm="tasklane", error="invalid_token"',
  )
}

describe('POST /tokens', () => {
  it('returns 201 with the record, its Location, no-store, and the secret: tl_ and 32 random bytes', async () => {
    const response = await admin.post('/tokens', { name: 'CI', principal: 'ci-bot', role: 'read' })
    const created = expectStatus<CreatedToken>(response, 201)
    expect(created).toEqual({
      id: expect.any(Number),
      name: 'CI',
      principal: 'ci-bot',
      role: 'read',
      createdAt: expect.stringMatching(TIME),
      createdBy: 'admin',
      token: expect.stringMatching(/^tl_[A-Za-z0-9_-]{43,}$/),
    })
    expect(Buffer.from(created.token.slice(3), 'base64url').length).toBeGreaterThanOrEqual(32)
    expect(response.headers.location).toBe(`/tokens/${created.id}`)
    expect(response.headers['cache-control']).toBe('no-store')
    const other = await makeToken(server, { principal: 'ci-bot' })
    expect(other.token).not.toBe(created.token)
    const me = as(server, created.token)
    expect(expectStatus(await me.get('/me'), 200)).toEqual({
      principal: 'ci-bot',
      role: 'read',
      roles: [],
    })
  })

  it('stores only the SHA-256 of the secret; no log line or metric holds a secret or digest', async () => {
    const { id, token } = await makeToken(server, { principal: 'stored' })
    expectStatus(await as(server, token).get('/tasks'), 200)
    const rows = await server.testDatabase.use((db) =>
      db.selectFrom('tokens').selectAll().execute(),
    )
    const row = rows.find((r) => Number(r.id) === id)
    const digest = createHash('sha256').update(token).digest('hex')
    expect(row?.hash).toBe(digest)
    const stored = JSON.stringify(rows)
    expect(stored).not.toContain(token)
    expect(stored).not.toContain(token.slice(3))
    // Refused ones too: a wrong token, a JWT-shaped one.
    const wrong = `tl_${'w'.repeat(43)}`
    const jwtLike = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl'
    for (const bad of [wrong, jwtLike])
      expect((await as(server, bad).get('/tasks')).statusCode).toBe(401)
    const metrics = await admin.get('/metrics')
    expect(metrics.statusCode).toBe(200)
    expect(log.length).toBeGreaterThan(0)
    const logged = JSON.stringify(log)
    for (const secret of [token.slice(3), digest, ADMIN_TOKEN, wrong.slice(3), jwtLike]) {
      expect(logged).not.toContain(secret)
      expect(metrics.body).not.toContain(secret)
    }
  })

  it('returns 400 for an expiresAt in the past, naming it', async () => {
    const response = await admin.post('/tokens', { name: 'old', expiresAt: '2020-01-01T00:00:00Z' })
    expectErrorBody(response, 400, 'Field "expiresAt" must be a time in the future.')
  })
})

describe('a token that expires', () => {
  it('works until its expiresAt, then gets 401', async () => {
    const expiresAt = new Date(Date.now() + 1500).toISOString()
    const created = await makeToken(server, { principal: 'brief', expiresAt })
    expect(created.expiresAt).toBe(expiresAt)
    const brief = as(server, created.token)
    expectStatus(await brief.get('/lists'), 200)
    await new Promise((resolve) => setTimeout(resolve, Date.parse(expiresAt) - Date.now() + 50))
    expectInvalid(await brief.get('/lists'), 'The access token has expired.')
  })
})

describe('GET /tokens', () => {
  it("lists the caller's own tokens, the admin every one, never a secret", async () => {
    const made = await makeToken(server, { principal: 'lister' })
    const lister = as(server, made.token)
    const { token: _secret, ...record } = made
    const own = expectStatus<Token[]>(await lister.get('/tokens'), 200)
    expect(own).toEqual([record])
    const all = expectStatus<Token[]>(await admin.get('/tokens'), 200)
    expect(all).toContainEqual(record)
    expect(all.map((t) => t.principal)).toEqual(expect.arrayContaining(['alice', 'lister']))
    for (const token of all) expect(Object.keys(token)).not.toContain('token')
    expect(JSON.stringify(all)).not.toContain('tl_')
  })
})

describe('DELETE /tokens/{id}', () => {
  it('revokes the token: the very next request with it gets 401, and it is listed no more', async () => {
    const made = await makeToken(server, { principal: 'revoked' })
    const revoked = as(server, made.token)
    expectStatus(await revoked.get('/lists'), 200)
    const response = await revoked.delete(`/tokens/${made.id}`)
    expect({ status: response.statusCode, body: response.body }).toEqual({ status: 204, body: '' })
    expectInvalid(await revoked.get('/lists'))
    expect(expectStatus<Token[]>(await admin.get('/tokens'), 200).map((t) => t.id)).not.toContain(
      made.id,
    )
    expectErrorBody(
      await admin.delete(`/tokens/${made.id}`),
      404,
      `Token ${made.id} does not exist.`,
    )
  })

  it("returns 404 to a non-admin for another principal's token", async () => {
    const theirs = await makeToken(server, { principal: 'someone-else' })
    expectErrorBody(
      await alice.delete(`/tokens/${theirs.id}`),
      404,
      `Token ${theirs.id} does not exist.`,
    )
    expectStatus(await as(server, theirs.token).get('/lists'), 200)
  })
})

describe('a non-admin revoking tokens', () => {
  it('revokes with a read-only credential only read-only tokens, as it makes only those', async () => {
    const writer = await makeToken(server, { principal: 'alice' })
    const readers = [1, 2].map(async () => makeToken(server, { principal: 'alice', role: 'read' }))
    const [reader, other] = await Promise.all(readers)
    const readOnly = as(server, reader?.token)
    expectErrorBody(
      await readOnly.delete(`/tokens/${writer.id}`),
      403,
      'This credential is read-only: it revokes read-only tokens only.',
    )
    expectStatus(await as(server, writer.token).get('/lists'), 200)
    expect((await readOnly.delete(`/tokens/${other?.id}`)).statusCode).toBe(204)
  })

  it('revokes with a narrowed credential only tokens narrowed to some of its lists', async () => {
    const list = await createList(alice, 'Narrow revoker')
    const wide = await makeToken(server, { principal: 'alice' })
    const narrowed = as(
      server,
      (await makeToken(server, { principal: 'alice', lists: [list.id] })).token,
    )
    const within = await makeToken(server, { principal: 'alice', lists: [list.id] })
    expectErrorBody(
      await narrowed.delete(`/tokens/${wide.id}`),
      403,
      `This credential is limited to lists ${list.id}: it revokes only tokens limited to some of them.`,
    )
    expect((await narrowed.delete(`/tokens/${within.id}`)).statusCode).toBe(204)
  })
})

describe('a non-admin making tokens', () => {
  it('returns 403 for another principal or the admin role', async () => {
    expectErrorBody(
      await alice.post('/tokens', { name: 'x', principal: 'bob' }),
      403,
      'Only an admin makes tokens for another principal; you are "alice".',
    )
    expectErrorBody(
      await alice.post('/tokens', { name: 'x', role: 'admin' }),
      403,
      'Only an admin makes admin tokens.',
    )
  })

  it('makes only read-only tokens with a read-only credential, and those change nothing', async () => {
    const list = await createList(alice, 'Read only')
    const reader = as(server, (await makeToken(server, { principal: 'alice', role: 'read' })).token)
    expectErrorBody(
      await reader.post('/tokens', { name: 'x', role: 'write' }),
      403,
      'This credential is read-only: it makes read-only tokens only.',
    )
    const made = expectStatus<CreatedToken>(await reader.post('/tokens', { name: 'child' }), 201)
    expect(made).toMatchObject({ principal: 'alice', role: 'read', createdBy: 'alice' })
    const child = as(server, made.token)
    expectStatus(await child.get(`/lists/${list.id}`), 200)
    expect((await child.post('/task', { name: 'no', listId: list.id })).statusCode).toBe(403)
  })

  it('makes tokens narrowed to some of its own lists only, when its credential is narrowed', async () => {
    const [one, two] = [await createList(alice, 'One'), await createList(alice, 'Two')]
    const narrowed = as(
      server,
      (await makeToken(server, { principal: 'alice', lists: [one.id] })).token,
    )
    const message = `This credential is limited to lists ${one.id}: a token made with it must name some of them in "lists".`
    expectErrorBody(await narrowed.post('/tokens', { name: 'x' }), 403, message)
    expectErrorBody(
      await narrowed.post('/tokens', { name: 'x', lists: [one.id, two.id] }),
      403,
      message,
    )
    const made = expectStatus<CreatedToken>(
      await narrowed.post('/tokens', { name: 'x', lists: [one.id] }),
      201,
    )
    expect(made.lists).toEqual([one.id])
    const child = as(server, made.token)
    expect(expectStatus(await child.get('/lists'), 200)).toEqual([one])
    expect((await child.get(`/lists/${two.id}`)).statusCode).toBe(404)
  })

  it('makes no token that outlives its own credential', async () => {
    const expiresAt = new Date(Date.now() + 60 * 60_000).toISOString()
    const brief = as(server, (await makeToken(server, { principal: 'alice', expiresAt })).token)
    const later = new Date(Date.parse(expiresAt) + 1000).toISOString()
    const message = `This credential expires at ${expiresAt}: a token made with it must expire by then ("expiresAt").`
    expectErrorBody(await brief.post('/tokens', { name: 'forever' }), 403, message)
    expectErrorBody(await brief.post('/tokens', { name: 'later', expiresAt: later }), 403, message)
    const made = expectStatus<CreatedToken>(
      await brief.post('/tokens', { name: 'ok', expiresAt }),
      201,
    )
    expect(made.expiresAt).toBe(expiresAt)
  })
})

describe('Idempotency-Keys', () => {
  it('are per principal: the same key and body from two principals make two tasks and two lists', async () => {
    const bob = await principal(server, 'bob')
    const shared = await createList(alice, 'Shared')
    await addMember(alice, shared.id, 'bob', 'editor')
    const key = { 'idempotency-key': 'everyone-uses-this' }
    const body = { name: 'same', listId: shared.id }
    const [mine, theirs] = [
      await alice.post('/task', body, key),
      await bob.post('/task', body, key),
    ]
    const [a, b] = [expectStatus<Task>(mine, 201), expectStatus<Task>(theirs, 201)]
    expect(b.id).not.toBe(a.id)
    expect([a.createdBy, b.createdBy]).toEqual(['alice', 'bob'])
    expect(theirs.headers['idempotent-replayed']).toBeUndefined()
    const listKey = { 'idempotency-key': 'everyone-uses-this-too' }
    const lists = [
      await alice.post('/list', { name: 'L' }, listKey),
      await bob.post('/list', { name: 'L' }, listKey),
    ]
    const [l1, l2] = lists.map((response) => expectStatus<{ id: number }>(response, 201))
    expect(l2?.id).not.toBe(l1?.id)
    expect(lists[1]?.headers['idempotent-replayed']).toBeUndefined()
    // Each principal's repeat replays its own.
    expect((await bob.post('/task', body, key)).json()).toEqual(b)
  })
  it("of the operator are never replayed to another credential named like it (a member's token for principal admin)", async () => {
    const key = { 'idempotency-key': 'operators-key' }
    const body = { name: 'made by the operator' }
    const made = expectStatus<Task>(await admin.post('/task', body, key), 201)
    // A write token, not an admin one: the principal's name is the operator's, its rights a
    // member's (none). Its key is its own: no replay of the operator's 201, but its own 403.
    const namesake = await principal(server, 'admin', { role: 'write' })
    const response = await namesake.post('/task', body, key)
    expect(response.headers['idempotent-replayed']).toBeUndefined()
    expect(response.statusCode).toBe(403)
    // The operator's own repeat still replays.
    const again = await admin.post('/task', body, key)
    expect(again.headers['idempotent-replayed']).toBe('true')
    expect(again.json()).toEqual(made)
  })
})

describe('open mode', () => {
  it('returns 409 naming API_TOKEN for POST and GET /tokens', async () => {
    const open = await startServer()
    try {
      const local = as(open, undefined)
      const message =
        'This server runs without credentials (open mode); set API_TOKEN (or AUTH_JWT_SECRET or AUTH_JWKS_URL) to use access tokens.'
      expectErrorBody(await local.post('/tokens', { name: 'x' }), 409, message)
      expectErrorBody(await local.get('/tokens'), 409, message)
      expect(expectStatus(await local.get('/me'), 200)).toEqual({
        principal: 'local',
        role: 'admin',
        roles: [],
      })
    } finally {
      await open.close()
    }
  })
})
