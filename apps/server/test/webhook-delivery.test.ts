// Deliveries to real HTTP receivers on 127.0.0.1: Standard Webhooks signatures, every change
// in seq order one at a time, retries that never skip a change, 410, addresses refused after
// DNS, filters, the creator's rights re-read for each change, two instances on one database.
import type { CreatedWebhook, List, Task, Webhook, WebhookDelivery } from '@tasklane/contract'
import { Webhook as StandardWebhook } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest'
import {
  ADMIN_TOKEN,
  addMember,
  type Caller,
  createList,
  createTaskIn,
  expectStatus,
  principal,
} from './support/access.js'
import { parseMetrics, type Sample, sampleValue } from './support/metrics.js'
import { type StartOptions, startServer, type TestServer } from './support/server.js'
import { createTestDatabase } from './support/test-database.js'
import { closedPort, expectedSignature, WebhookReceiver } from './support/webhook-receiver.js'

/** Fast times: a backoff of 50 ms doubling to 200 ms, a poll every 20 ms. */
const FAST = { pollMs: 20, timeoutMs: 2_000, backoff: { baseMs: 50, maxMs: 200 } }
const WAIT = { timeout: 10_000, interval: 20 }

const receivers: WebhookReceiver[] = []
let refusedPort: number
let server: TestServer
let alice: Caller
let bob: Caller
let list: List
/** The main server's log, and every secret its webhooks were given. */
const log: Record<string, unknown>[] = []
const secrets: string[] = []

/** Server options that allow the receivers' and the refused port's addresses. */
function options(extra: Partial<StartOptions> = {}): StartOptions {
  const hosts = [...receivers.map((r) => `127.0.0.1:${r.port}`), `127.0.0.1:${refusedPort}`]
  return {
    settings: { apiToken: ADMIN_TOKEN, webhookAllowedHosts: hosts },
    webhookDelivery: FAST,
    ...extra,
  }
}

beforeAll(async () => {
  for (let i = 0; i < 20; i++) receivers.push(await WebhookReceiver.start())
  refusedPort = await closedPort()
  server = await startServer({ ...options(), log })
  alice = await principal(server, 'alice')
  bob = await principal(server, 'bob')
  list = await createList(alice, 'Alice')
})

afterAll(async () => {
  await server?.close()
  await Promise.all(receivers.map((receiver) => receiver.close()))
})

let used = 0

/** A receiver of its own for this test. */
const receiver = (): WebhookReceiver => receivers[used++] as WebhookReceiver

/** A webhook made by `caller`, deleted when the test ends. */
async function hook(caller: Caller, body: Record<string, unknown>): Promise<CreatedWebhook> {
  const created = expectStatus<CreatedWebhook>(await caller.post('/webhooks', body), 201)
  secrets.push(created.secret)
  onTestFinished(async () => void (await caller.delete(`/webhooks/${created.id}`)))
  return created
}

const seqOf = (response: { headers: Record<string, unknown> }) =>
  Number(response.headers['tasklane-seq'])

async function deliveries(caller: Caller, id: number): Promise<WebhookDelivery[]> {
  return expectStatus<WebhookDelivery[]>(await caller.get(`/webhooks/${id}/deliveries`), 200)
}

describe('a delivery', () => {
  it('is signed as Standard Webhooks say, with the change as its body', async () => {
    const to = receiver()
    const webhook = await hook(alice, { url: to.url })
    const created = await alice.post('/task', { name: 'Signed', listId: list.id })
    const task = expectStatus<Task>(created, 201)
    const done = await alice.patch(`/tasks/${task.id}`, { status: 'done' })
    const deleted = await alice.delete(`/tasks/${task.id}`)
    await vi.waitFor(() => expect(to.acknowledged()).toHaveLength(3), WAIT)

    const [first, second, third] = to.received
    for (const received of to.received) {
      expect(received.headers['content-type']).toBe('application/json')
      expect(received.headers['webhook-id']).toBe(`${webhook.id}_${received.event.seq}`)
      const timestamp = Number(received.headers['webhook-timestamp'])
      expect(Math.abs(timestamp - Date.now() / 1000)).toBeLessThan(30)
      expect(received.headers['webhook-signature']).toBe(
        expectedSignature(webhook.secret, received),
      )
      // As a receiver using the standardwebhooks package checks it (and its timestamp).
      const headers = received.headers as Record<string, string>
      expect(new StandardWebhook(webhook.secret).verify(received.body, headers)).toEqual(
        received.event,
      )
    }
    expect(first?.event).toEqual({
      type: 'task.created',
      seq: seqOf(created),
      timestamp: task.createdAt,
      actor: 'alice',
      data: task,
      changes: expect.objectContaining({ name: { from: null, to: 'Signed' } }),
    })
    expect(second?.event).toMatchObject({
      type: 'task.updated',
      seq: seqOf(done),
      data: done.json(),
      changes: expect.objectContaining({ status: { from: 'open', to: 'done' } }),
    })
    expect(third?.event).toMatchObject({
      type: 'task.deleted',
      seq: seqOf(deleted),
      data: { id: task.id, version: (done.json() as Task).version },
    })
    // A signature made with another secret does not match.
    const other = `whsec_${Buffer.alloc(32, 1).toString('base64')}`
    expect(first && expectedSignature(other, first)).not.toBe(first?.headers['webhook-signature'])
    const firstHeaders = first?.headers as Record<string, string>
    expect(() => new StandardWebhook(other).verify(first?.body ?? '', firstHeaders)).toThrow(
      'No matching signature found',
    )
    // A body changed on the way does not match either.
    const altered = first?.body.replace('Signed', 'Forged') ?? ''
    expect(() => new StandardWebhook(webhook.secret).verify(altered, firstHeaders)).toThrow(
      'No matching signature found',
    )
    await vi.waitFor(async () => {
      const got = expectStatus<Webhook>(await alice.get(`/webhooks/${webhook.id}`), 200)
      expect(got.cursor).toBeGreaterThanOrEqual(seqOf(deleted))
    }, WAIT)
  })

  it('sends every change in seq order, the next only after the previous was answered', async () => {
    const to = receiver()
    to.answer = () => ({ status: 200, delayMs: 15 })
    await hook(alice, { url: to.url })
    const seqs = await Promise.all(
      Array.from({ length: 12 }, async (_, i) =>
        seqOf(await alice.post('/task', { name: `Burst ${i}`, listId: list.id })),
      ),
    )
    await vi.waitFor(() => expect(to.received).toHaveLength(12), WAIT)
    expect(to.received.map((r) => r.event.seq)).toEqual([...seqs].sort((a, b) => a - b))
    expect(to.maxInFlight).toBe(1)
  })
})

describe('a failed delivery', () => {
  it('is retried after a 500, with the same webhook-id, and no later change is skipped', async () => {
    const to = receiver()
    to.answer = ({ n }) => ({ status: n < 2 ? 500 : 200 })
    const webhook = await hook(alice, { url: to.url })
    const one = seqOf(await alice.post('/task', { name: 'One', listId: list.id }))
    const two = seqOf(await alice.post('/task', { name: 'Two', listId: list.id }))
    await vi.waitFor(() => expect(to.acknowledged()).toHaveLength(2), WAIT)
    expect(to.received.map((r) => [r.status, r.event.seq])).toEqual([
      [500, one],
      [500, one],
      [200, one],
      [200, two],
    ])
    const ids = to.received.slice(0, 3).map((r) => r.headers['webhook-id'])
    expect(new Set(ids)).toEqual(new Set([`${webhook.id}_${one}`]))
    await vi.waitFor(async () => expect(await deliveries(alice, webhook.id)).toHaveLength(4), WAIT)
    const attempts = await deliveries(alice, webhook.id)
    expect(attempts.map((a) => [a.seq, a.status, a.error])).toEqual([
      [two, 200, null],
      [one, 200, null],
      [one, 500, 'The receiver answered 500.'],
      [one, 500, 'The receiver answered 500.'],
    ])
    for (const attempt of attempts) expect(attempt.durationMs).toBeGreaterThanOrEqual(0)
  })

  it('is retried after a refused connection until a receiver listens', async () => {
    const webhook = await hook(alice, { url: `http://127.0.0.1:${refusedPort}/hook` })
    const one = seqOf(await alice.post('/task', { name: 'Refused one', listId: list.id }))
    const two = seqOf(await alice.post('/task', { name: 'Refused two', listId: list.id }))
    await vi.waitFor(async () => {
      const attempts = await deliveries(alice, webhook.id)
      expect(attempts.length).toBeGreaterThanOrEqual(2)
      for (const attempt of attempts) {
        expect(attempt).toMatchObject({ seq: one, status: null })
        expect(attempt.error).toMatch(/ECONNREFUSED/)
      }
    }, WAIT)
    const late = await WebhookReceiver.start(refusedPort)
    onTestFinished(() => late.close())
    await vi.waitFor(() => expect(late.acknowledged()).toHaveLength(2), WAIT)
    expect(late.received.map((r) => r.event.seq)).toEqual([one, two])
  })

  it('disables the webhook when the receiver answers 410', async () => {
    const to = receiver()
    to.answer = () => ({ status: 410 })
    const webhook = await hook(alice, { url: to.url })
    await createTaskIn(alice, list.id, 'Gone one')
    await vi.waitFor(async () => {
      const got = expectStatus<Webhook>(await alice.get(`/webhooks/${webhook.id}`), 200)
      expect(got).toMatchObject({ enabled: false, status: 'disabled', cursor: webhook.cursor })
    }, WAIT)
    await createTaskIn(alice, list.id, 'Gone two')
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(to.received).toHaveLength(1)
  })
})

describe('a webhook that keeps failing', () => {
  it('shows "failing" once it has failed long enough, and "active" again after a 2xx', async () => {
    // Failing after 150 ms instead of 24 h; a receiver that hangs longer than 300 ms fails.
    const quick = await startServer(
      options({ webhookDelivery: { ...FAST, failingAfterMs: 150, timeoutMs: 300 } }),
    )
    onTestFinished(() => quick.close())
    const carol = await principal(quick, 'carol')
    const own = await createList(carol, 'Carol')
    const to = receiver()
    to.answer = ({ n }) => (n === 0 ? { status: 200, delayMs: 1_000 } : { status: 503 })
    const webhook = expectStatus<CreatedWebhook>(
      await carol.post('/webhooks', { url: to.url }),
      201,
    )
    const seq = seqOf(await carol.post('/task', { name: 'Failing', listId: own.id }))
    await vi.waitFor(async () => {
      const got = expectStatus<Webhook>(await carol.get(`/webhooks/${webhook.id}`), 200)
      expect(got).toMatchObject({ status: 'failing', enabled: true, cursor: webhook.cursor })
      expect(got.failingSince).toMatch(/Z$/)
      const attempts = await deliveries(carol, webhook.id)
      expect(attempts.at(-1)).toMatchObject({
        seq,
        status: null,
        error: 'No answer within 300 ms.',
      })
      expect(attempts.at(0)).toMatchObject({ seq, status: 503 })
    }, WAIT)
    to.answer = () => ({ status: 200 })
    await vi.waitFor(async () => {
      const got = expectStatus<Webhook>(await carol.get(`/webhooks/${webhook.id}`), 200)
      expect(got).toMatchObject({ status: 'active', cursor: seq })
      expect(got.failingSince).toBeUndefined()
    }, WAIT)
  })

  it('does not follow a redirect: a 307 is a failed attempt', async () => {
    const to = receiver()
    to.answer = () => ({ status: 307 })
    const webhook = await hook(alice, { url: to.url })
    await createTaskIn(alice, list.id, 'Redirected')
    await vi.waitFor(async () => {
      const attempts = await deliveries(alice, webhook.id)
      expect(attempts.length).toBeGreaterThanOrEqual(2)
      for (const attempt of attempts) expect(attempt.status).toBe(307)
    }, WAIT)
  })
})

describe('the metrics', () => {
  async function scrape(): Promise<Sample[]> {
    const response = await fetch(`${server.url}/metrics`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    })
    expect(response.status).toBe(200)
    return parseMetrics(await response.text())
  }
  const attempts = (samples: Sample[], outcome: string) =>
    sampleValue(samples, 'tasklane_webhook_deliveries_total', { outcome }) ?? Number.NaN

  it('count attempts by outcome, and show the lag and the webhooks retrying', async () => {
    const before = await scrape()
    const failing = receiver()
    let fail = true
    failing.answer = () => ({ status: fail ? 503 : 204 })
    const gone = receiver()
    gone.answer = () => ({ status: 410 })
    const goneHook = await hook(alice, { url: gone.url })
    await hook(alice, { url: failing.url })
    await createTaskIn(alice, list.id, 'Measured one')
    await createTaskIn(alice, list.id, 'Measured two')
    await vi.waitFor(() => expect(failing.received.length).toBeGreaterThanOrEqual(2), WAIT)
    await vi.waitFor(async () => {
      const got = expectStatus<Webhook>(await alice.get(`/webhooks/${goneHook.id}`), 200)
      expect(got.enabled).toBe(false)
    }, WAIT)

    // The receiver sees a request before the deliverer has read its answer and counted it.
    await vi.waitFor(async () => {
      const during = await scrape()
      expect(sampleValue(during, 'tasklane_webhook_retrying')).toBe(1)
      // The failing webhook has both changes to send; the disabled one is not counted.
      expect(sampleValue(during, 'tasklane_webhook_lag_seqs')).toBe(2)
      expect(sampleValue(during, 'tasklane_webhooks_behind')).toBe(1)
      expect(attempts(during, 'failed') - attempts(before, 'failed')).toBeGreaterThanOrEqual(2)
      expect(attempts(during, 'gone') - attempts(before, 'gone')).toBe(1)
    }, WAIT)

    fail = false
    await vi.waitFor(() => expect(failing.acknowledged()).toHaveLength(2), WAIT)
    await vi.waitFor(async () => {
      const after = await scrape()
      expect(sampleValue(after, 'tasklane_webhook_retrying')).toBe(0)
      expect(sampleValue(after, 'tasklane_webhook_lag_seqs')).toBe(0)
      expect(sampleValue(after, 'tasklane_webhooks_behind')).toBe(0)
      expect(attempts(after, 'acknowledged') - attempts(before, 'acknowledged')).toBe(2)
      expect(attempts(after, 'failed') - attempts(before, 'failed')).toBe(
        failing.received.length - 2,
      )
    }, WAIT)
  })
})

describe('PATCH cursor', () => {
  it('delivers the changes after it again, in order', async () => {
    const to = receiver()
    const webhook = await hook(alice, { url: to.url })
    const seqs: number[] = []
    for (const name of ['Replay one', 'Replay two']) {
      seqs.push(seqOf(await alice.post('/task', { name, listId: list.id })))
    }
    await vi.waitFor(() => expect(to.received).toHaveLength(2), WAIT)
    const patched = await alice.patch(`/webhooks/${webhook.id}`, { cursor: webhook.cursor })
    expect(expectStatus<Webhook>(patched, 200).cursor).toBe(webhook.cursor)
    await vi.waitFor(() => expect(to.received).toHaveLength(4), WAIT)
    expect(to.received.map((r) => r.event.seq)).toEqual([...seqs, ...seqs])
  })
})

describe('what a webhook is sent', () => {
  it('only its lists and types', async () => {
    const to = receiver()
    const other = await createList(alice, 'Other')
    await hook(alice, { url: to.url, lists: [other.id], types: ['task.created'] })
    const task = await createTaskIn(alice, list.id, 'Not this list')
    const wanted = await createTaskIn(alice, other.id, 'This one')
    await alice.patch(`/tasks/${wanted.id}`, { status: 'done' })
    await alice.delete(`/tasks/${task.id}`)
    const last = await createTaskIn(alice, other.id, 'And this one')
    await vi.waitFor(() => expect(to.received).toHaveLength(2), WAIT)
    expect(to.received.map((r) => [r.event.type, r.event.data.id])).toEqual([
      ['task.created', wanted.id],
      ['task.created', last.id],
    ])
  })

  it("stops sending a list's changes once its creator can no longer read it", async () => {
    const to = receiver()
    const shared = await createList(alice, 'Shared')
    await addMember(alice, shared.id, 'bob', 'viewer')
    const own = await createList(bob, 'Bob')
    await hook(bob, { url: to.url })
    const before = await createTaskIn(alice, shared.id, 'Seen')
    await vi.waitFor(() => expect(to.received).toHaveLength(1), WAIT)
    expect((await alice.delete(`/lists/${shared.id}/members/bob`)).statusCode).toBe(204)
    await createTaskIn(alice, shared.id, 'Not seen')
    const after = await createTaskIn(bob, own.id, 'Seen too')
    await vi.waitFor(() => expect(to.received).toHaveLength(2), WAIT)
    expect(to.received.map((r) => r.event.data.id)).toEqual([before.id, after.id])
  })
})

describe('a list deleted', () => {
  it("sends its tasks' deletes to its members' webhooks, and to no one else's", async () => {
    const toBob = receiver()
    const toCarol = receiver()
    const carol = await principal(server, 'carol')
    const doomed = await createList(alice, 'Doomed')
    await addMember(alice, doomed.id, 'bob', 'viewer')
    const carols = await createList(carol, 'Carol')
    await hook(bob, { url: toBob.url, lists: [doomed.id] })
    await hook(carol, { url: toCarol.url })
    const tasks = [
      await createTaskIn(alice, doomed.id, 'A'),
      await createTaskIn(alice, doomed.id, 'B'),
    ]
    await vi.waitFor(() => expect(toBob.received).toHaveLength(2), WAIT)
    expect((await alice.delete(`/lists/${doomed.id}`)).statusCode).toBe(204)
    await vi.waitFor(() => expect(toBob.received).toHaveLength(4), WAIT)
    expect(toBob.received.slice(2).map((r) => [r.event.type, r.event.data])).toEqual(
      tasks.map((task) => ['task.deleted', { id: task.id, version: task.version }]),
    )
    const marker = await createTaskIn(carol, carols.id, 'Marker')
    await vi.waitFor(() => expect(toCarol.received).toHaveLength(1), WAIT)
    expect(toCarol.received[0]?.event.data.id).toBe(marker.id)
  })
})

describe('addresses', () => {
  it('refuses a name that resolves to a loopback address when connecting', async () => {
    const to = receiver()
    // localhost:<port> is not listed (127.0.0.1:<port> is): the name passes creation, DNS
    // gives a loopback address, and the connection is refused before it is made.
    const webhook = await hook(alice, { url: `http://localhost:${to.port}/hook` })
    await createTaskIn(alice, list.id, 'Not sent')
    await vi.waitFor(async () => {
      const [attempt] = await deliveries(alice, webhook.id)
      expect(attempt?.status).toBeNull()
      expect(attempt?.error).toMatch(
        /^localhost resolves to (127\.0\.0\.1|::1), a private, loopback, link-local or multicast address/,
      )
    }, WAIT)
    expect(to.received).toEqual([])
  })
})

describe('two instances on one database', () => {
  it('deliver each change once, one at a time', async () => {
    const second = await startServer(options({ testDatabase: server.testDatabase }))
    onTestFinished(() => second.close())
    const to = receiver()
    to.answer = () => ({ status: 200, delayMs: 10 })
    await hook(alice, { url: to.url })
    const seqs: number[] = []
    for (let i = 0; i < 15; i++) {
      seqs.push(seqOf(await alice.post('/task', { name: `Twice ${i}`, listId: list.id })))
    }
    await vi.waitFor(() => expect(to.received).toHaveLength(15), WAIT)
    // Long enough for a second delivery of any of them to arrive.
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(to.received.map((r) => r.event.seq)).toEqual(seqs)
    expect(to.maxInFlight).toBe(1)
  })

  it('let the other deliver at once a change whose delivery was cut short by a shutdown', async () => {
    // A lease of 30 s: were it not let go at shutdown, the other would wait for it.
    const database = await createTestDatabase()
    const first = await startServer(
      options({ testDatabase: database, webhookDelivery: { ...FAST, timeoutMs: 10_000 } }),
    )
    const dave = await principal(first, 'dave')
    const own = await createList(dave, 'Dave')
    const to = receiver()
    to.answer = ({ n }) => (n === 0 ? { status: 200, delayMs: 5_000 } : { status: 200 })
    expectStatus(await dave.post('/webhooks', { url: to.url }), 201)
    const seq = seqOf(await dave.post('/task', { name: 'Cut short', listId: own.id }))
    await vi.waitFor(() => expect(to.received).toHaveLength(1), WAIT)
    const other = await startServer(options({ testDatabase: database }))
    onTestFinished(async () => {
      await other.close()
      await database.drop()
    })
    await first.close()
    await vi.waitFor(() => expect(to.received).toHaveLength(2), { timeout: 5_000, interval: 20 })
    expect(to.received.map((r) => r.event.seq)).toEqual([seq, seq])
    expect(to.received[1]?.headers['webhook-id']).toBe(to.received[0]?.headers['webhook-id'])
  })

  it('let one take the lease of a webhook until it expires or is let go', async () => {
    const second = await startServer(options({ testDatabase: server.testDatabase }))
    onTestFinished(() => second.close())
    // Nothing to deliver (its cursor is the newest seq): no deliverer takes it meanwhile.
    const { id } = await hook(alice, { url: 'https://hooks.example.com/lease' })
    const [here, there] = [server.storage.webhooks, second.storage.webhooks]
    const now = Date.now()
    expect((await here.claim(id, 'first', now, now + 60_000))?.id).toBe(id)
    expect(await there.claim(id, 'second', now, now + 60_000)).toBeUndefined()
    expect(await there.renew(id, 'second', now + 60_000)).toBe(false)
    // An instance that died: its lease runs out, and another takes it.
    expect((await there.claim(id, 'second', now + 60_000, now + 120_000))?.id).toBe(id)
    expect(await here.renew(id, 'first', now + 60_000)).toBe(false)
    expect(await here.advance(id, 'first', 0, 1, true)).toBe(false)
    await there.release(id, 'second')
    expect((await here.claim(id, 'first', now, now + 60_000))?.id).toBe(id)
    await here.release(id, 'first')
  })
})

describe('the log', () => {
  it('tells of failed deliveries and never holds a secret', () => {
    const lines = log.map((line) => JSON.stringify(line))
    expect(lines.some((line) => line.includes('Webhook delivery failed'))).toBe(true)
    expect(secrets.length).toBeGreaterThan(5)
    for (const secret of secrets) {
      expect(lines.filter((line) => line.includes(secret.slice('whsec_'.length)))).toEqual([])
    }
  })
})
