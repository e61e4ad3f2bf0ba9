// What a webhook may reach and how much of an answer is read: the addresses refused (also
// those DNS gives), WEBHOOK_ALLOWED_HOSTS, the 64 KiB read, the timeout, and the backoff.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { AllowedHosts, isRefusedAddress, refusalOf } from '../src/webhooks/address-policy.js'
import { backoffDelay } from '../src/webhooks/backoff.js'
import { DeliveryError, safePost } from '../src/webhooks/safe-fetch.js'

let server: Server | undefined

afterEach(async () => {
  server?.closeAllConnections()
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined))
  server = undefined
})

/** A local server answering every request with `handler`; its port. */
async function serve(handler: Parameters<typeof createServer>[1]): Promise<number> {
  server = createServer(handler)
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve))
  return (server.address() as AddressInfo).port
}

const post = (url: string, allowed: string[], timeoutMs = 2_000) =>
  safePost(url, { headers: {}, body: '{}', timeoutMs, allowed: new AllowedHosts(allowed) })

describe('isRefusedAddress', () => {
  it.each([
    '127.0.0.1',
    '127.255.0.9',
    '10.0.0.1',
    '172.16.5.4',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.251',
    '255.255.255.255',
    '::1',
    '::',
    'fd00::1',
    'fe80::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:a00:1',
    '::7f00:1',
    '::127.0.0.1',
    '::ffff:0:7f00:1',
    '64:ff9b::7f00:1',
    '64:ff9b:1::1',
    '2002:7f00:1::1',
    '2002:a9fe:a9fe::',
    'fec0::1',
    '100::1',
    'fe80::1%eth0',
    'not an address',
  ])('refuses %s', (address) => {
    expect(isRefusedAddress(address)).toBe(true)
  })

  it.each([
    '93.184.216.34',
    '8.8.8.8',
    '172.32.0.1',
    '2606:4700::1111',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
  ])('lets %s through', (address) => {
    expect(isRefusedAddress(address)).toBe(false)
  })
})

describe('refusalOf', () => {
  it('lets a listed host:port through, and that pair only', () => {
    const allowed = new AllowedHosts(['127.0.0.1:9000', '[::1]:80'])
    expect(refusalOf('http://127.0.0.1:9000/hook', allowed)).toBeUndefined()
    expect(refusalOf('http://[::1]/hook', allowed)).toBeUndefined()
    expect(refusalOf('http://127.0.0.1:9001/hook', allowed)).toMatch(/^url must not name/)
    expect(refusalOf('https://[::1]/hook', allowed)).toMatch(/^url must not name/)
  })

  // Every way of writing a loopback address in a URL: WHATWG URL parsing turns each into
  // the address it means, which is what is checked (and what would be connected to).
  it.each([
    ['http://2130706433/', '127.0.0.1'],
    ['http://0x7f000001/', '127.0.0.1'],
    ['http://0177.0.0.1/', '127.0.0.1'],
    ['http://017700000001/', '127.0.0.1'],
    ['http://127.1/', '127.0.0.1'],
    ['http://0x7f.1/', '127.0.0.1'],
    ['http://0/', '0.0.0.0'],
    ['http://[::1]/', '::1'],
    ['http://[0:0:0:0:0:0:0:1]/', '::1'],
    ['http://[::ffff:127.0.0.1]/', '::ffff:7f00:1'],
    ['http://[0:0:0:0:0:ffff:7f00:1]/', '::ffff:7f00:1'],
    ['http://[::127.0.0.1]/', '::7f00:1'],
    ['http://[::ffff:0:127.0.0.1]/', '::ffff:0:7f00:1'],
    ['http://[64:ff9b::127.0.0.1]/', '64:ff9b::7f00:1'],
    ['http://[2002:7f00:1::]/', '2002:7f00:1::'],
    ['http://[::ffff:169.254.169.254]/', '::ffff:a9fe:a9fe'],
  ])('refuses %s, naming url and the address it means', (url, address) => {
    expect(refusalOf(url, new AllowedHosts([]))).toBe(
      `url must not name a private, loopback, link-local or multicast address (${address}); list it in WEBHOOK_ALLOWED_HOSTS to allow it.`,
    )
  })

  it('leaves a name to the check after DNS', () => {
    expect(refusalOf('https://localhost/hook', new AllowedHosts([]))).toBeUndefined()
  })
})

describe('safePost', () => {
  it('refuses a name whose address DNS says is private, before connecting', async () => {
    let connected = false
    const port = await serve((_request, response) => {
      connected = true
      response.end()
    })
    const error = await post(`http://localhost:${port}/`, []).catch((failure) => failure)
    expect(error).toBeInstanceOf(DeliveryError)
    expect(error.message).toMatch(/^localhost resolves to (127\.0\.0\.1|::1), a private/)
    expect(connected).toBe(false)
  })

  it('reads at most 64 KiB of an answer: an endless one still gives its status', async () => {
    const chunk = Buffer.alloc(16 * 1024, 'x')
    const port = await serve((_request, response) => {
      response.writeHead(200)
      const more = () => {
        while (response.write(chunk)) {}
      }
      response.on('drain', more)
      more()
    })
    expect(await post(`http://127.0.0.1:${port}/`, [`127.0.0.1:${port}`])).toBe(200)
  })

  it('gives up after the timeout', async () => {
    const port = await serve(() => {})
    const started = Date.now()
    const error = await post(`http://127.0.0.1:${port}/`, [`127.0.0.1:${port}`], 200).catch(
      (failure) => failure,
    )
    expect(error).toEqual(new DeliveryError('No answer within 200 ms.'))
    expect(Date.now() - started).toBeLessThan(2_000)
  })

  it('does not follow a redirect', async () => {
    let requests = 0
    const port = await serve((_request, response) => {
      requests++
      response.writeHead(302, { location: '/elsewhere' }).end()
    })
    expect(await post(`http://127.0.0.1:${port}/`, [`127.0.0.1:${port}`])).toBe(302)
    expect(requests).toBe(1)
  })
})

describe('backoffDelay', () => {
  it('doubles from the base to the maximum, each 80–100% of it', () => {
    const backoff = { baseMs: 5_000, maxMs: 3_600_000 }
    expect([1, 2, 3, 4].map((n) => backoffDelay(backoff, n, 1))).toEqual([
      5_000, 10_000, 20_000, 40_000,
    ])
    expect(backoffDelay(backoff, 1, 0)).toBe(4_000)
    expect(backoffDelay(backoff, 11, 1)).toBe(3_600_000)
    expect(backoffDelay(backoff, 1_000, 1)).toBe(3_600_000)
  })
})
