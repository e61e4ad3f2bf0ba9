// Webhooks through the client against a real server process, delivering to a real receiver
// on 127.0.0.1 (listed in WEBHOOK_ALLOWED_HOSTS): each delivery checked with verifyWebhook.
import { randomBytes } from 'node:crypto'
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { startServer } from '@tasklane/testing/server'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import {
  ApiError,
  createClient,
  type Task,
  type TasklaneClient,
  verifyWebhook,
  WebhookVerificationError,
} from '../src/index.js'
import { validateResponses } from '../src/validate.js'

const API_TOKEN = `admin-${randomBytes(16).toString('hex')}`
const WAIT = { timeout: 15_000, interval: 50 }

/** What the receiver got: each request's headers and raw body. */
const received: { headers: IncomingHttpHeaders; body: string }[] = []
const receiver = createServer((request, response) => {
  const chunks: Buffer[] = []
  request.on('data', (chunk: Buffer) => chunks.push(chunk))
  request.on('end', () => {
    received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') })
    response.writeHead(204).end()
  })
})

let server: Awaited<ReturnType<typeof startServer>>
let admin: TasklaneClient
let port: number

beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  port = (receiver.address() as AddressInfo).port
  server = await startServer({
    apiToken: API_TOKEN,
    env: { WEBHOOK_ALLOWED_HOSTS: `127.0.0.1:${port}` },
  })
  admin = createClient({ baseUrl: server.url, token: API_TOKEN, validate: validateResponses })
})

afterAll(async () => {
  await server?.close()
  receiver.closeAllConnections()
  await new Promise((resolve) => receiver.close(resolve))
})

describe('webhooks through the client', () => {
  it('makes a webhook whose deliveries verifyWebhook accepts, replays from a cursor, deletes it', async () => {
    const list = await admin.createList({ name: 'Hooked' })
    const hook = await admin.createWebhook({ url: `http://127.0.0.1:${port}/hook` })
    expect(hook).toMatchObject({ url: `http://127.0.0.1:${port}/hook`, status: 'active' })
    expect(hook.secret).toMatch(/^whsec_/)
    const task: Task = await admin.createTask({ name: 'Delivered', listId: list.id })

    await vi.waitFor(() => expect(received).toHaveLength(1), WAIT)
    const [first] = received as [(typeof received)[number]]
    const event = await verifyWebhook(hook.secret, first.headers, first.body)
    expect(event).toMatchObject({ type: 'task.created', actor: 'admin', data: task })
    // Another secret, or a changed body, is refused.
    const other = `whsec_${randomBytes(32).toString('base64')}`
    await expect(verifyWebhook(other, first.headers, first.body)).rejects.toBeInstanceOf(
      WebhookVerificationError,
    )
    await expect(
      verifyWebhook(hook.secret, first.headers, first.body.replace('Delivered', 'Forged')),
    ).rejects.toBeInstanceOf(WebhookVerificationError)

    expect((await admin.listWebhooks()).map((w) => w.id)).toContain(hook.id)
    await vi.waitFor(
      async () => expect((await admin.getWebhook(hook.id)).cursor).toBe(event.seq),
      WAIT,
    )
    const [attempt] = await admin.listWebhookDeliveries(hook.id)
    expect(attempt).toMatchObject({ seq: event.seq, status: 204, error: null })

    // Back to where it started: the same change again, with the same webhook-id.
    const replayed = await admin.updateWebhook(hook.id, { cursor: hook.cursor })
    expect(replayed.cursor).toBe(hook.cursor)
    await vi.waitFor(() => expect(received).toHaveLength(2), WAIT)
    expect(received[1]?.headers['webhook-id']).toBe(first.headers['webhook-id'])
    expect(
      (await verifyWebhook(hook.secret, received[1]?.headers ?? {}, received[1]?.body ?? '')).seq,
    ).toBe(event.seq)

    const paused = await admin.updateWebhook(hook.id, { enabled: false })
    expect(paused).toMatchObject({ enabled: false, status: 'disabled' })
    await admin.deleteWebhook(hook.id)
    const gone = await admin.getWebhook(hook.id).catch((error: unknown) => error)
    expect(gone).toBeInstanceOf(ApiError)
    expect(gone).toMatchObject({ status: 404, message: `Webhook ${hook.id} does not exist.` })
  })

  it('rejects a URL of a private address with a 400 naming url', async () => {
    const refused = await admin
      .createWebhook({ url: 'http://10.0.0.1/hook' })
      .catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(ApiError)
    expect(refused).toMatchObject({ status: 400, message: expect.stringMatching(/^url must not/) })
  })

  it('hides a webhook from another principal: 404', async () => {
    const hook = await admin.createWebhook({ url: `http://127.0.0.1:${port}/other` })
    const made = await admin.createToken({ name: 'bob', principal: 'bob' })
    const bob = createClient({ baseUrl: server.url, token: made.token })
    expect(await bob.listWebhooks()).toEqual([])
    const error = await bob.getWebhook(hook.id).catch((failure: unknown) => failure)
    expect(error).toMatchObject({ status: 404 })
    await admin.deleteWebhook(hook.id)
  })
})
