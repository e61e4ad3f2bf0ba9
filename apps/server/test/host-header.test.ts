import { exchange } from '@tasklane/testing/raw-http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { allowedHostsFor, hostAllowed, isLoopback } from '../src/http/allowed-hosts.js'
import { expectError } from './support/http.js'
import { startServer, type TestServer } from './support/server.js'

/** GET /health/live with exactly this Host header, over a real connection. */
const withHost = (server: TestServer, host: string) =>
  exchange(server.port, `GET /health/live HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`)

describe('the Host header of a server bound to loopback (the default)', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startServer()
  })
  afterAll(() => server?.close())

  it.each(['localhost', '127.0.0.1', '[::1]', 'LOCALHOST.'])(
    'answers %s, with its port or without',
    async (name) => {
      expect((await withHost(server, `${name}:${server.port}`)).status).toBe(200)
      expect((await withHost(server, name)).status).toBe(200)
    },
  )

  it('answers 421 naming the Host to a page elsewhere whose name resolves here (DNS rebinding)', async () => {
    const response = await withHost(server, `rebind.attacker.example:${server.port}`)
    await expectError(
      response,
      421,
      `This server does not answer to the Host "rebind.attacker.example:${server.port}"; it answers to localhost, 127.0.0.1, [::1] (ALLOWED_HOSTS).`,
    )
    expect(response.headers['x-request-id']).toBeDefined()
  })

  it('answers 421 to a name that only begins like localhost', async () => {
    expect((await withHost(server, 'localhost.attacker.example')).status).toBe(421)
  })
})

describe('ALLOWED_HOSTS', () => {
  it('lets any Host through when the server listens on every interface and the setting is empty', async () => {
    const server = await startServer({ settings: { host: '0.0.0.0' } })
    try {
      expect((await withHost(server, 'anything.example:8080')).status).toBe(200)
    } finally {
      await server.close()
    }
  })

  it('answers only the names it lists, with any port unless the entry names one', async () => {
    const server = await startServer({
      settings: { allowedHosts: ['tasks.example.com', '10.0.0.5:3000'] },
    })
    try {
      expect((await withHost(server, 'tasks.example.com')).status).toBe(200)
      expect((await withHost(server, 'Tasks.Example.com:8443')).status).toBe(200)
      expect((await withHost(server, '10.0.0.5:3000')).status).toBe(200)
      expect((await withHost(server, '10.0.0.5:3001')).status).toBe(421)
      expect((await withHost(server, `localhost:${server.port}`)).status).toBe(421)
    } finally {
      await server.close()
    }
  })

  it('lets any Host through when it is *', async () => {
    const server = await startServer({ settings: { allowedHosts: ['*'] } })
    try {
      expect((await withHost(server, 'anything.example')).status).toBe(200)
    } finally {
      await server.close()
    }
  })

  it('defaults by the bound address', () => {
    expect(isLoopback('127.0.0.2') && isLoopback('::1') && isLoopback('localhost')).toBe(true)
    expect(isLoopback('0.0.0.0') || isLoopback('10.0.0.5')).toBe(false)
    expect(allowedHostsFor([], '::1')?.names).toEqual(['localhost', '127.0.0.1', '[::1]'])
    expect(allowedHostsFor([], '127.0.0.2')?.names).toContain('127.0.0.2')
    expect(allowedHostsFor([], '0.0.0.0')).toBeUndefined()
    const listed = allowedHostsFor(['[::1]:3000'], '0.0.0.0')
    expect(listed && hostAllowed(listed, '[::1]:3000')).toBe(true)
    expect(listed && hostAllowed(listed, '[::1]:3001')).toBe(false)
  })
})
