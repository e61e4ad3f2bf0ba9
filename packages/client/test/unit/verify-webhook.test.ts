// verifyWebhook: a Standard Webhooks signature and a 5-minute timestamp window, checked
// with Web Crypto; the expected signature computed here with node:crypto, independently.
import { createHmac, randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { verifyWebhook, WebhookVerificationError } from '../../src/index.js'

const secret = `whsec_${randomBytes(32).toString('base64')}`
const body = JSON.stringify({
  type: 'task.created',
  seq: 7,
  timestamp: '2026-11-28T06:00:00.000Z',
  actor: 'alice',
  data: { id: 3, name: 'Plan' },
  changes: { name: { from: null, to: 'Plan' } },
})
const now = Date.UTC(2026, 10, 28, 6, 0, 0)
const timestamp = String(Math.floor(now / 1000))

function sign(key: string, id: string, at: string, text: string): string {
  const bytes = Buffer.from(key.slice('whsec_'.length), 'base64')
  return `v1,${createHmac('sha256', bytes).update(`${id}.${at}.${text}`).digest('base64')}`
}

const headersFor = (overrides: Record<string, string> = {}) => ({
  'webhook-id': '1_7',
  'webhook-timestamp': timestamp,
  'webhook-signature': sign(secret, '1_7', timestamp, body),
  ...overrides,
})

async function refusal(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.fail('verifyWebhook resolved'),
    (error: unknown) => error,
  )
}

describe('verifyWebhook', () => {
  it('returns the parsed body when the signature and timestamp hold', async () => {
    expect(await verifyWebhook(secret, headersFor(), body, { now })).toEqual(JSON.parse(body))
  })

  it('takes fetch Headers, Node-style headers in any case, and the body as bytes', async () => {
    const fetchHeaders = new Headers(headersFor())
    expect((await verifyWebhook(secret, fetchHeaders, body, { now })).seq).toBe(7)
    const upper = Object.fromEntries(
      Object.entries(headersFor()).map(([name, value]) => [name.toUpperCase(), [value]]),
    )
    const bytes = new TextEncoder().encode(body)
    expect((await verifyWebhook(secret, upper, bytes, { now })).seq).toBe(7)
  })

  it('accepts any of several signatures, as during a secret rotation', async () => {
    const other = `whsec_${randomBytes(32).toString('base64')}`
    const both = `${sign(other, '1_7', timestamp, body)} ${sign(secret, '1_7', timestamp, body)}`
    const headers = headersFor({ 'webhook-signature': both })
    expect((await verifyWebhook(secret, headers, body, { now })).seq).toBe(7)
  })

  it.each([
    [
      'another secret',
      { 'webhook-signature': sign(`whsec_${'A'.repeat(43)}=`, '1_7', timestamp, body) },
    ],
    ['another id', { 'webhook-id': '1_8' }],
    ['another timestamp', { 'webhook-timestamp': String(Number(timestamp) - 1) }],
    [
      'a v2 scheme',
      { 'webhook-signature': sign(secret, '1_7', timestamp, body).replace('v1,', 'v2,') },
    ],
  ])('throws when the signature was made with %s', async (_, overrides) => {
    const error = await refusal(verifyWebhook(secret, headersFor(overrides), body, { now }))
    expect(error).toBeInstanceOf(WebhookVerificationError)
  })

  it('throws when the body was changed', async () => {
    const changed = body.replace('Plan', 'Plot')
    const error = await refusal(verifyWebhook(secret, headersFor(), changed, { now }))
    expect(error).toEqual(new WebhookVerificationError('No webhook-signature matches the body.'))
  })

  it('throws outside the 5-minute window, and accepts at its edges', async () => {
    const at = (offsetS: number) => ({ now: now + offsetS * 1000 })
    for (const offset of [-300, 300]) {
      expect((await verifyWebhook(secret, headersFor(), body, at(offset))).seq).toBe(7)
    }
    for (const offset of [-301, 301]) {
      const error = await refusal(verifyWebhook(secret, headersFor(), body, at(offset)))
      expect(error).toEqual(
        new WebhookVerificationError('The webhook-timestamp is not within 5 minutes of now.'),
      )
    }
  })

  it('throws when a header is missing', async () => {
    for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature']) {
      const headers: Record<string, string> = headersFor()
      delete headers[name]
      const error = await refusal(verifyWebhook(secret, headers, body, { now }))
      expect(error).toBeInstanceOf(WebhookVerificationError)
    }
  })
})
