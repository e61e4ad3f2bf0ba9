import { lookup as dnsLookup, type LookupAddress } from 'node:dns'
import { request as httpRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { isIP, type LookupFunction } from 'node:net'
import { type AllowedHosts, isRefusedAddress } from './address-policy.js'

/** Most of a response that is read; the rest is dropped with the connection. */
export const MAX_RESPONSE_BYTES = 64 * 1024

/** Why an attempt got no answer: refused, timed out, a refused address, … */
export class DeliveryError extends Error {
  override name = 'DeliveryError'
}

/** How a POST is made: bounded in time, on allowed addresses only. */
export interface SafePostOptions {
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
  /** The whole attempt, connecting included (ms). */
  readonly timeoutMs: number
  readonly allowed: AllowedHosts
  /** DNS resolution (default node:dns lookup); the addresses it gives are checked. */
  readonly lookup?: typeof dnsLookup | undefined
  readonly signal?: AbortSignal | undefined
}

/** A lookup that refuses every address a webhook may not reach. */
function checkedLookup(resolve: typeof dnsLookup): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0)
      const refused = addresses.find(({ address }) => isRefusedAddress(address))
      if (refused !== undefined || addresses.length === 0) {
        const message = `${hostname} resolves to ${refused?.address ?? 'no address'}, a private, loopback, link-local or multicast address; list the host in WEBHOOK_ALLOWED_HOSTS to allow it.`
        return callback(new DeliveryError(message), '', 0)
      }
      if (options.all) return callback(null, addresses as never)
      const [first] = addresses as [LookupAddress]
      return callback(null, first.address, first.family)
    })
  }
}

/** A network error's words: `ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:1`. */
function describe(error: unknown): string {
  if (error instanceof DeliveryError) return error.message
  const code = (error as { code?: unknown }).code
  const message = error instanceof Error ? error.message : String(error)
  return typeof code === 'string' && !message.startsWith(code) ? `${code}: ${message}` : message
}

/**
 * POSTs to a webhook's URL: the address checked after DNS resolution (an address written in
 * the URL before connecting), no redirect followed, at most 64 KiB of the answer read, the
 * whole attempt within `timeoutMs`. Resolves with the status; rejects with DeliveryError.
 */
export function safePost(target: string, options: SafePostOptions): Promise<number> {
  const url = new URL(target)
  const allowed = options.allowed.allows(url)
  const host = url.hostname.replace(/^\[|\]$/g, '')
  if (!allowed && isIP(host) !== 0 && isRefusedAddress(host)) {
    return Promise.reject(
      new DeliveryError(
        `${host} is a private, loopback, link-local or multicast address; list it in WEBHOOK_ALLOWED_HOSTS to allow it.`,
      ),
    )
  }
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest
  return new Promise<number>((resolve, reject) => {
    const request = send(url, {
      method: 'POST',
      headers: { ...options.headers, 'content-length': Buffer.byteLength(options.body) },
      agent: false,
      lookup: allowed ? undefined : checkedLookup(options.lookup ?? dnsLookup),
      signal: options.signal,
    })
    const timer = setTimeout(
      () => request.destroy(new DeliveryError(`No answer within ${options.timeoutMs} ms.`)),
      options.timeoutMs,
    )
    const fail = (error: unknown) => {
      clearTimeout(timer)
      reject(new DeliveryError(describe(error)))
    }
    request.on('error', fail)
    request.on('response', (response: IncomingMessage) => {
      let read = 0
      const done = () => {
        clearTimeout(timer)
        resolve(response.statusCode ?? 0)
      }
      response.on('data', (chunk: Buffer) => {
        read += chunk.length
        // Enough: the status is all that counts.
        if (read >= MAX_RESPONSE_BYTES) {
          response.destroy()
          request.destroy()
          done()
        }
      })
      response.on('end', done)
      response.on('error', done)
      response.on('aborted', done)
    })
    request.end(options.body)
  })
}
