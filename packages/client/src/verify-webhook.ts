import { WebhookVerificationError } from './errors/webhook-verification-error.js'
import type { WebhookEvent } from './webhook-types.js'

/** How far a delivery's timestamp may be from now, in seconds: 5 minutes. */
const TOLERANCE_S = 5 * 60

/** A delivery's headers: a fetch Headers, or Node's `request.headers`. */
export type WebhookHeaders =
  | { get(name: string): string | null }
  | Readonly<Record<string, string | readonly string[] | undefined>>

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof headers.get === 'function') {
    return (headers as { get(name: string): string | null }).get(name) ?? undefined
  }
  const record = headers as Readonly<Record<string, string | readonly string[] | undefined>>
  const key = Object.keys(record).find((key) => key.toLowerCase() === name)
  const value = key === undefined ? undefined : record[key]
  return typeof value === 'string' ? value : value?.[0]
}

const fromBase64 = (text: string) => Uint8Array.from(atob(text), (char) => char.charCodeAt(0))

function toBase64(bytes: ArrayBuffer): string {
  let binary = ''
  for (const byte of new Uint8Array(bytes)) binary += String.fromCharCode(byte)
  return btoa(binary)
}

/** Equal strings, compared in a time that does not depend on where they differ. */
function same(a: string, b: string): boolean {
  if (a.length !== b.length) return false
  let difference = 0
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i)
  return difference === 0
}

/**
 * Checks a webhook delivery as Standard Webhooks say: `webhook-signature` holds a `v1,`
 * signature, HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>` keyed by the secret,
 * and `webhook-timestamp` is within 5 minutes of now. Returns the parsed body; throws a
 * WebhookVerificationError otherwise. Pass the body exactly as received (not re-serialized).
 * Web Crypto only: runs in browsers, Node, Bun and Deno.
 * @example
 * const event = await verifyWebhook(secret, request.headers, rawBody)
 * if (event.type === 'task.created') console.log(event.data)
 */
export async function verifyWebhook(
  secret: string,
  headers: WebhookHeaders,
  body: string | Uint8Array,
  { now = Date.now() }: { now?: number } = {},
): Promise<WebhookEvent> {
  const id = header(headers, 'webhook-id')
  const timestamp = header(headers, 'webhook-timestamp')
  const signatures = header(headers, 'webhook-signature')
  if (id === undefined || timestamp === undefined || signatures === undefined) {
    throw new WebhookVerificationError(
      'A webhook-id, webhook-timestamp or webhook-signature header is missing.',
    )
  }
  if (!/^\d{1,15}$/.test(timestamp) || Math.abs(now / 1000 - Number(timestamp)) > TOLERANCE_S) {
    throw new WebhookVerificationError('The webhook-timestamp is not within 5 minutes of now.')
  }
  let key: Uint8Array
  try {
    key = fromBase64(secret.replace(/^whsec_/, ''))
  } catch {
    throw new TypeError('The secret is not whsec_ followed by base64.')
  }
  const text = typeof body === 'string' ? body : new TextDecoder().decode(body)
  const hmac = await crypto.subtle.importKey(
    'raw',
    key as Uint8Array<ArrayBuffer>,
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  )
  const signed = `${id}.${timestamp}.${text}`
  const expected = toBase64(
    await crypto.subtle.sign('HMAC', hmac, new TextEncoder().encode(signed)),
  )
  const matches = signatures
    .split(' ')
    .some((entry) => entry.startsWith('v1,') && same(entry.slice(3), expected))
  if (!matches) throw new WebhookVerificationError('No webhook-signature matches the body.')
  return JSON.parse(text) as WebhookEvent
}
