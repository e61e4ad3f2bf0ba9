// After sindresorhus/is-network-error (as inlined by ky): fetch rejects with a TypeError both
// when the server cannot be reached and when it was handed something it cannot send, and
// only the message, which each runtime words its own way, tells the two apart.
const MESSAGES = new Set([
  'fetch failed', // Node.js (undici)
  'terminated', // Node.js (undici), the connection closed mid-response
  'Failed to fetch', // Chromium
  'network error', // Chromium, a body cut off
  'NetworkError when attempting to fetch resource.', // Firefox
  'The Internet connection appears to be offline.', // Safari
  'The network connection was lost.', // Safari
  ' A network error occurred.', // Bun on WebKit (the leading space is Bun's)
  'Network request failed', // cross-fetch, React Native
])

// A fetch built on node:http (the CLI's import uses one) rejects with Node's system errors,
// Bun with an Error; either names the failure in its `code`.
const CODES =
  /^(E(CONNREFUSED|CONNRESET|CONNABORTED|TIMEDOUT|PIPE|HOSTUNREACH|NETUNREACH|NOTFOUND|AI_AGAIN)|Connection(Refused|Closed)|FailedToOpenSocket)$/

/**
 * True when `error`, a rejection of fetch, means that the server could not be reached or
 * the connection broke; false for a usage error such as an invalid header value or URL.
 */
export function isNetworkError(error: unknown): boolean {
  // Duck-typed rather than by instanceof: the fetch may come from another realm.
  const { name, message, stack, cause, code } = Object(error) as Error & { code?: unknown }
  if (CODES.test(code as string)) return true
  if (name !== 'TypeError' || typeof message !== 'string') return false
  // undici says "fetch failed" for an argument it refuses too; its cause then says so.
  if ((cause as { code?: unknown } | undefined)?.code === 'UND_ERR_INVALID_ARG') return false
  return (
    MESSAGES.has(message) ||
    // Chromium may name the host: "Failed to fetch (example.com)".
    message.startsWith('Failed to fetch (') ||
    // Deno: "error sending request for url (…)", since 2.1 "error sending request from …".
    message.startsWith('error sending request ') ||
    // Safari's message is generic; only its network errors come without a stack.
    (message.startsWith('Load failed') && stack === undefined)
  )
}
