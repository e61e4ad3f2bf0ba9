// POST, GET, PATCH and DELETE /webhooks and GET /webhooks/{id}/deliveries: a secret shown
// once, a webhook seen by its creator only, URLs of the server's own network refused.
// Deliveries themselves: webhook-delivery.test.ts.
import type { CreatedWebhook, List, Webhook } from '@tasklane/contract'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  ADMIN_TOKEN,
  type Caller,
  createList,
  createTaskIn,
  expectErrorBody,
  expectStatus,
  principal,
} from './support/access.js'
import { startServer, type TestServer } from './support/server.js'

const TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/
const URL_OK = 'https://hooks.example.com/tasklane'

let server: TestServer
let alice: Caller
let bob: Caller
let list: List

beforeAll(async () => {
  server = await startServer({
    settings: { apiToken: ADMIN_TOKEN, webhookAllowedHosts: ['127.0.0.1:9999'] },
    // Only the routes here: nothing is delivered while these tests run.
    webhookDelivery: { pollMs: 3_600_000 },
  })
  alice = await principal(server, 'alice')
  bob = await principal(server, 'bob')
  list = await createList(alice, 'Alice')
})

afterAll(async () => {
  await server?.close()
})

async function create(caller: Caller, body: Record<string, unknown>): Promise<CreatedWebhook> {
  return expectStatus<CreatedWebhook>(await caller.post('/webhooks', body), 201)
}

describe('POST /webhooks', () => {
  it('returns 201 with the webhook, its Location, no-store, and the secret: whsec_ and 32 random bytes', async () => {
    const task = await createTaskIn(alice, list.id, 'Before')
    const history = await alice.get(`/tasks/${task.id}/history`)
    const newest = Number(history.headers['tasklane-seq'])
    const response = await alice.post('/webhooks', { url: URL_OK })
    const created = expectStatus<CreatedWebhook>(response, 201)
    expect(created).toEqual({
      id: expect.any(Number),
      url: URL_OK,
      types: ['task.created', 'task.updated', 'task.deleted'],
      enabled: true,
      status: 'active',
      cursor: newest,
      createdAt: expect.stringMatching(TIME),
      updatedAt: created.createdAt,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    })
    expect(Buffer.from(created.secret.slice(6), 'base64')).toHaveLength(32)
    expect(response.headers.location).toBe(`/webhooks/${created.id}`)
    expect(response.headers['cache-control']).toBe('no-store')
  })

  it('starts after the seq given, and keeps the lists and types asked for', async () => {
    const created = await create(alice, {
      url: URL_OK,
      lists: [list.id],
      types: ['task.deleted'],
      after: 1,
    })
    expect(created).toMatchObject({ cursor: 1, lists: [list.id], types: ['task.deleted'] })
    // The contract's key order, as for every resource.
    expect(Object.keys(created)).toEqual([
      ...['id', 'url', 'lists', 'types', 'enabled', 'status', 'cursor', 'createdAt'],
      ...['updatedAt', 'secret'],
    ])
  })

  it.each([
    ['ftp://hooks.example.com/', /^Field "url" must be an absolute http or https URL/],
    ['http://127.0.0.1:8080/hook', /^url must not name a private, loopback.*\(127\.0\.0\.1\)/],
    ['http://10.1.2.3/hook', /^url must not name a private.*\(10\.1\.2\.3\)/],
    ['http://192.168.0.10/hook', /^url must not name a private/],
    ['http://169.254.169.254/latest/meta-data', /^url must not name a private/],
    ['http://[::1]:3000/', /^url must not name a private.*\(::1\)/],
    ['http://[::ffff:127.0.0.1]/', /^url must not name a private/],
    ['http://224.0.0.1/', /^url must not name a private/],
    ['http://2130706433/', /^url must not name a private.*\(127\.0\.0\.1\)/],
    ['http://0x7f000001/', /^url must not name a private.*\(127\.0\.0\.1\)/],
    ['http://0177.0.0.1/', /^url must not name a private.*\(127\.0\.0\.1\)/],
    ['http://127.1/', /^url must not name a private.*\(127\.0\.0\.1\)/],
    ['http://[::127.0.0.1]/', /^url must not name a private.*\(::7f00:1\)/],
    ['http://[64:ff9b::127.0.0.1]/', /^url must not name a private.*\(64:ff9b::7f00:1\)/],
    ['http://user:pw@hooks.example.com/', 'url must not carry a user name or password.'],
  ])('refuses %s with a 400 naming url', async (url, message) => {
    expectErrorBody(await alice.post('/webhooks', { url }), 400, message)
  })

  it('refuses a body that is not a NewWebhook with a 400 naming the field', async () => {
    expectErrorBody(await alice.post('/webhooks', {}), 400, /url/)
    expectErrorBody(await alice.post('/webhooks', { url: 'hooks' }), 400, /url/)
    const types = await alice.post('/webhooks', { url: URL_OK, types: ['task.moved'] })
    expectErrorBody(types, 400, /types/)
    expectErrorBody(await alice.post('/webhooks', { url: URL_OK, after: -1 }), 400, /after/)
    expectErrorBody(await alice.post('/webhooks', { url: URL_OK, extra: 1 }), 400, /extra/)
  })

  it('takes an address listed in WEBHOOK_ALLOWED_HOSTS, on that port only', async () => {
    const created = await create(alice, { url: 'http://127.0.0.1:9999/hook' })
    expect(created.url).toBe('http://127.0.0.1:9999/hook')
    expectErrorBody(await alice.post('/webhooks', { url: 'http://127.0.0.1:9998/' }), 400, /url/)
  })

  it('answers 404 for a list the creator cannot read', async () => {
    const response = await bob.post('/webhooks', { url: URL_OK, lists: [list.id] })
    expectErrorBody(response, 404, `List ${list.id} does not exist.`)
  })
})

describe('GET /webhooks and GET /webhooks/{id}', () => {
  it("lists the caller's own webhooks, never a secret", async () => {
    const mine = await create(bob, { url: `${URL_OK}/bob` })
    const listed = expectStatus<Webhook[]>(await bob.get('/webhooks'), 200)
    const { secret: _secret, ...record } = mine
    expect(listed).toEqual([record])
    const alices = expectStatus<Webhook[]>(await alice.get('/webhooks'), 200)
    expect(alices.map((webhook) => webhook.id)).not.toContain(mine.id)
    expect(JSON.stringify(alices)).not.toContain('whsec_')
    expect(expectStatus(await bob.get(`/webhooks/${mine.id}`), 200)).toEqual(record)
  })

  it("answers 404 for another principal's webhook, on every route", async () => {
    const { id } = await create(alice, { url: URL_OK })
    const message = `Webhook ${id} does not exist.`
    expectErrorBody(await bob.get(`/webhooks/${id}`), 404, message)
    expectErrorBody(await bob.patch(`/webhooks/${id}`, { enabled: false }), 404, message)
    expectErrorBody(await bob.delete(`/webhooks/${id}`), 404, message)
    expectErrorBody(await bob.get(`/webhooks/${id}/deliveries`), 404, message)
    expect(expectStatus<Webhook>(await alice.get(`/webhooks/${id}`), 200).enabled).toBe(true)
  })

  it('answers 400 for a query parameter, which GET /webhooks takes none of', async () => {
    expectErrorBody(await alice.get('/webhooks?limit=5'), 400, /limit/)
  })

  it('answers 400 for an id that is not a whole number', async () => {
    expectErrorBody(await alice.get('/webhooks/abc'), 400, /id/)
  })
})

describe('PATCH /webhooks/{id}', () => {
  it('changes the cursor, url, lists, types and enabled', async () => {
    const { id } = await create(alice, { url: URL_OK, lists: [list.id] })
    const changed = expectStatus<Webhook>(
      await alice.patch(`/webhooks/${id}`, {
        cursor: 0,
        url: `${URL_OK}/v2`,
        lists: null,
        types: ['task.created'],
        enabled: false,
      }),
      200,
    )
    expect(changed).toMatchObject({
      id,
      cursor: 0,
      url: `${URL_OK}/v2`,
      types: ['task.created'],
      enabled: false,
      status: 'disabled',
    })
    expect(changed.lists).toBeUndefined()
    const again = await alice.patch(
      `/webhooks/${id}`,
      { enabled: true },
      {
        'content-type': 'application/json',
      },
    )
    expect(expectStatus<Webhook>(again, 200)).toMatchObject({ enabled: true, status: 'active' })
  })

  it('refuses an empty patch, a refused url and a bad field with a 400', async () => {
    const { id } = await create(alice, { url: URL_OK })
    expectErrorBody(await alice.patch(`/webhooks/${id}`, {}), 400, /./)
    expectErrorBody(await alice.patch(`/webhooks/${id}`, { url: 'http://10.0.0.1/' }), 400, /^url/)
    expectErrorBody(await alice.patch(`/webhooks/${id}`, { cursor: 'x' }), 400, /cursor/)
  })
})

describe('DELETE /webhooks/{id} and GET /webhooks/{id}/deliveries', () => {
  it('answers no deliveries for a new webhook, 204 for a delete, then 404', async () => {
    const { id } = await create(alice, { url: URL_OK })
    expect(expectStatus(await alice.get(`/webhooks/${id}/deliveries`), 200)).toEqual([])
    const deleted = await alice.delete(`/webhooks/${id}`)
    expect(deleted.statusCode).toBe(204)
    expectErrorBody(await alice.get(`/webhooks/${id}`), 404, `Webhook ${id} does not exist.`)
    expectErrorBody(await alice.delete(`/webhooks/${id}`), 404, `Webhook ${id} does not exist.`)
    const listed = expectStatus<Webhook[]>(await alice.get('/webhooks'), 200)
    expect(listed.map((webhook) => webhook.id)).not.toContain(id)
  })
})
