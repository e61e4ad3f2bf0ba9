import { createHmac, randomBytes } from 'node:crypto'

// Standard Webhooks signing (https://www.standardwebhooks.com): a secret `whsec_<base64>`,
// and for each attempt `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">` keyed by the
// secret's decoded bytes.

const PREFIX = 'whsec_'

/** A new signing secret: whsec_ and the base64 of 32 random bytes. */
export function newWebhookSecret(): string {
  return `${PREFIX}${randomBytes(32).toString('base64')}`
}

/** The webhook-signature header of one attempt. */
export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.slice(PREFIX.length), 'base64')
  const mac = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')
  return `v1,${mac}`
}
