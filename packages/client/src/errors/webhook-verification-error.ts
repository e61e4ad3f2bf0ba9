/**
 * Thrown by `verifyWebhook` when a delivery cannot be trusted: a header is missing, its
 * timestamp is outside the 5-minute window, or no signature matches. Answer it with a 4xx.
 */
export class WebhookVerificationError extends Error {
  override name = 'WebhookVerificationError'
}
