// kill -9 of a server process in the middle of a webhook's delivery: another process on the
// same database (SQLite file or PostgreSQL schema) takes the webhook over once the dead one's
// lease runs out, and every change is delivered at least once, in seq order, none skipped.
import type { CreatedWebhook, Webhook } from '@tasklane/contract'
import { Webhook as StandardWebhook } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { killAll, type ServerProcess, startServerProcess, within } from './support/processes.js'
import { createTestDatabase, type TestDatabase } from './support/test-database.js'
import { WebhookReceiver } from './support/webhook-receiver.js'

/** Changes in the backlog, and the delivery the kill cuts short (0: the first). */
const CHANGES = 200
const KILLED_AT = 80
/** How long the receiver takes to answer each delivery. */
const ANSWER_MS = 20

let database: TestDatabase
let receiver: WebhookReceiver

beforeAll(async () => {
  database = await createTestDatabase()
  receiver = await WebhookReceiver.start()
})

afterAll(async () => {
  await killAll()
  await receiver?.close()
  await database?.drop()
})

/** A server process on the test database that may post to the receiver. */
function serverProcess(): Promise<ServerProcess> {
  const direct = database.directUrl
  return startServerProcess({
    DATABASE_URL: database.url,
    ...(direct !== undefined && direct !== database.url ? { DATABASE_DIRECT_URL: direct } : {}),
    WEBHOOK_ALLOWED_HOSTS: `127.0.0.1:${receiver.port}`,
  })
}

async function post(server: ServerProcess, path: string, body: object) {
  const response = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  return { status: response.status, headers: response.headers, json: await response.json() }
}

describe('kill -9 in the middle of a webhook delivery', () => {
  it('another process delivers every change at least once, in seq order, none skipped', async () => {
    const first = await serverProcess()
    // The backlog: CHANGES tasks made before the webhook, which starts after none of them.
    const before = Number(
      (await post(first, '/task', { name: 'before' })).headers.get('tasklane-seq'),
    )
    const seqs: number[] = []
    for (let i = 0; i < CHANGES; i++) {
      const created = await post(first, '/task', { name: `backlog ${i}` })
      expect(created.status).toBe(201)
      seqs.push(Number(created.headers.get('tasklane-seq')))
    }
    expect(seqs.every((seq, i) => i === 0 || seq > (seqs[i - 1] as number))).toBe(true)

    // The kill comes while the receiver holds delivery KILLED_AT unanswered.
    let killed: Promise<unknown> | undefined
    receiver.answer = ({ n }) => {
      if (n === KILLED_AT) killed = first.kill()
      return { status: 204, delayMs: ANSWER_MS }
    }
    const made = await post(first, '/webhooks', { url: receiver.url, after: before })
    expect(made.status).toBe(201)
    const webhook = made.json as CreatedWebhook
    await within(
      (async () => {
        while (killed === undefined) await new Promise((resolve) => setTimeout(resolve, 10))
        await killed
      })(),
      30_000,
      'the kill in the middle of the backlog',
    )
    expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' })
    const cutShort = receiver.received[KILLED_AT]?.event.seq
    expect(cutShort).toBe(seqs[KILLED_AT])

    // The second process waits out the dead one's lease (30 s by default), then goes on.
    const second = await serverProcess()
    await within(
      (async () => {
        while (!receiver.received.some((r) => r.event.seq === seqs.at(-1))) {
          await new Promise((resolve) => setTimeout(resolve, 50))
        }
      })(),
      90_000,
      'the rest of the backlog from the second process',
    )
    // Its cursor reaches the last change once the receiver has answered.
    const cursor = async () => {
      const got = await fetch(`${second.url}/webhooks/${webhook.id}`)
      return ((await got.json()) as Webhook).cursor
    }
    await within(
      (async () => {
        while ((await cursor()) < (seqs.at(-1) as number)) {
          await new Promise((resolve) => setTimeout(resolve, 50))
        }
      })(),
      10_000,
      'the cursor at the last change',
    )

    // Each delivery is signed as Standard Webhooks say and names its change.
    const verifier = new StandardWebhook(webhook.secret)
    for (const received of receiver.received) {
      const headers = received.headers as Record<string, string>
      expect(verifier.verify(received.body, headers)).toEqual(received.event)
      expect(headers['webhook-id']).toBe(`${webhook.id}_${received.event.seq}`)
    }
    // Every change, once or more, in seq order by first delivery: none skipped, none extra.
    const ids = receiver.received.map((r) => r.headers['webhook-id'] as string)
    const firstSeen = [...new Set(ids)]
    expect(firstSeen).toEqual(seqs.map((seq) => `${webhook.id}_${seq}`))
    // The one cut short was sent again by the second process; only around the kill repeats.
    expect(ids.filter((id) => id === `${webhook.id}_${cutShort}`)).toHaveLength(2)
    expect(ids.length - firstSeen.length).toBe(1)
    expect(receiver.received.map((r) => r.event.seq)).toEqual([
      ...seqs.slice(0, KILLED_AT + 1),
      ...seqs.slice(KILLED_AT),
    ])
    expect(await within(second.stop(), 10_000, 'exit after SIGTERM')).toEqual({
      code: 0,
      signal: null,
    })
  }, 150_000)
})
