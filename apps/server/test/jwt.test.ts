// JWTs from an app that embeds tasklane: HS256 with AUTH_JWT_SECRET; RS256 and ES256 with the
// keys of AUTH_JWKS_URL (a JWKS served here, rotated, or down); exp, nbf, iss, aud, sub and
// tasklane_role; alg none and algorithm confusion refused.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { exportJWK, exportSPKI, generateKeyPair, type JWK, type JWTPayload, SignJWT } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { as, expectErrorBody, expectStatus } from './support/access.js'
import { startServer, type TestServer } from './support/server.js'

const SECRET = 'the-hs256-secret-of-the-jwt-tests-0123456789'
const now = () => Math.floor(Date.now() / 1000)

/** Signs `claims` (sub "alice", exp in 10 minutes unless they say otherwise) with HS256. */
function hs256(claims: JWTPayload & { tasklane_role?: string } = {}, secret = SECRET) {
  return new SignJWT({ sub: 'alice', exp: now() + 600, ...claims })
    .setProtectedHeader({ alg: 'HS256' })
    .sign(new TextEncoder().encode(secret))
}

let hs: TestServer
const log: Record<string, unknown>[] = []

beforeAll(async () => {
  hs = await startServer({ settings: { authJwtSecret: SECRET }, log })
})

afterAll(async () => {
  await hs?.close()
})

/** Asserts the 401 of a token that was sent and refused. */
async function expectRefused(server: TestServer, token: string, message: string) {
  const response = await as(server, token).get('/me')
  expectErrorBody(response, 401, message)
  expect(response.headers['www-authenticate']).toBe(
    'Bearer realm="tasklane", error="invalid_token"',
  )
}

describe('HS256 (AUTH_JWT_SECRET)', () => {
  it('takes sub as the principal, with write access', async () => {
    const caller = as(hs, await hs256({ sub: 'auth0|alice' }))
    expect(expectStatus(await caller.get('/me'), 200)).toEqual({
      principal: 'auth0|alice',
      role: 'write',
      roles: [],
    })
    expect(expectStatus(await caller.post('/list', { name: 'Mine' }), 201)).toMatchObject({
      name: 'Mine',
    })
  })

  it('makes no admin of a sub "admin" or "local": list 1 stays hidden from them', async () => {
    for (const sub of ['admin', 'local']) {
      const caller = as(hs, await hs256({ sub }))
      expect(expectStatus(await caller.get('/me'), 200)).toEqual({
        principal: sub,
        role: 'write',
        roles: [],
      })
      expectErrorBody(await caller.get('/lists/1'), 404, 'List 1 does not exist.')
      expect(expectStatus(await caller.get('/tokens'), 200)).toEqual([])
    }
  })

  it('allows 60 s of clock skew on exp and nbf, and no more', async () => {
    expectStatus(await as(hs, await hs256({ exp: now() - 30 })).get('/me'), 200)
    await expectRefused(hs, await hs256({ exp: now() - 90 }), 'The JWT has expired.')
    expectStatus(await as(hs, await hs256({ nbf: now() + 30 })).get('/me'), 200)
    await expectRefused(hs, await hs256({ nbf: now() + 120 }), 'The JWT is not valid yet ("nbf").')
  })

  it('refuses a JWT without exp or sub, or with a sub that is not a principal', async () => {
    await expectRefused(
      hs,
      await hs256({ exp: undefined }),
      'The JWT\'s "exp" claim is missing or not valid.',
    )
    await expectRefused(
      hs,
      await hs256({ sub: undefined }),
      'The JWT\'s "sub" claim is missing or not valid.',
    )
    const notPrincipal = 'The JWT\'s "sub" is not a principal (1–128 visible ASCII characters).'
    await expectRefused(hs, await hs256({ sub: 'alice smith' }), notPrincipal)
    await expectRefused(hs, await hs256({ sub: 'x'.repeat(129) }), notPrincipal)
  })

  it('refuses alg none, and a signature made with another secret', async () => {
    const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url')
    const unsigned = `${part({ alg: 'none', typ: 'JWT' })}.${part({ sub: 'alice', exp: now() + 600 })}.`
    await expectRefused(
      hs,
      unsigned,
      'The JWT is signed with an algorithm this server does not accept.',
    )
    const forged = await hs256({}, 'another-secret-of-at-least-32-characters')
    await expectRefused(hs, forged, "The JWT's signature is not valid.")
  })

  it('reads only with tasklane_role read: GET 200, any change 403; refuses another role', async () => {
    const writer = as(hs, await hs256({ sub: 'owner-of-read' }))
    const list = expectStatus<{ id: number }>(await writer.post('/list', { name: 'R' }), 201)
    const reader = as(hs, await hs256({ sub: 'owner-of-read', tasklane_role: 'read' }))
    expect(expectStatus(await reader.get('/me'), 200)).toMatchObject({ role: 'read' })
    expectStatus(await reader.get(`/lists/${list.id}`), 200)
    expectStatus(await reader.get(`/tasks?list=${list.id}`), 200)
    expectErrorBody(
      await reader.post('/task', { name: 'no', listId: list.id }),
      403,
      `This credential is read-only: changing tasks in list ${list.id} needs write access.`,
    )
    expect((await reader.patch(`/lists/${list.id}`, { name: 'no' })).statusCode).toBe(403)
    await expectRefused(
      hs,
      await hs256({ tasklane_role: 'admin' }),
      'The JWT\'s "tasklane_role" must be "read" or "write".',
    )
  })

  it('writes no JWT, taken or refused, in the log', async () => {
    const taken = await hs256({ sub: 'logged' })
    const refused = await hs256({ sub: 'logged', exp: now() - 120 })
    expectStatus(await as(hs, taken).get('/tasks'), 200)
    expect((await as(hs, refused).get('/tasks')).statusCode).toBe(401)
    const logged = JSON.stringify(log)
    expect(logged).toContain('/tasks')
    for (const token of [taken, refused]) expect(logged).not.toContain(token.split('.')[2])
  })

  it('checks iss and aud when they are configured', async () => {
    const strict = await startServer({
      settings: {
        authJwtSecret: SECRET,
        authJwtIssuer: 'https://app.example',
        authJwtAudience: 'tasklane',
      },
    })
    try {
      const right = { iss: 'https://app.example', aud: 'tasklane' }
      expectStatus(await as(strict, await hs256(right)).get('/me'), 200)
      await expectRefused(
        strict,
        await hs256({ ...right, iss: 'https://evil.example' }),
        'The JWT\'s "iss" is not the one expected.',
      )
      await expectRefused(
        strict,
        await hs256({ ...right, aud: 'other' }),
        'The JWT\'s "aud" is not the one expected.',
      )
      await expectRefused(
        strict,
        await hs256({ iss: right.iss }),
        'The JWT\'s "aud" is not the one expected.',
      )
    } finally {
      await strict.close()
    }
  })
})

/** A JSON Web Key Set served on 127.0.0.1, whose keys (and status) a test changes at will. */
async function serveJwks() {
  const jwks = { keys: [] as JWK[], status: 200 }
  const server: Server = createServer((_request, response) => {
    response.writeHead(jwks.status, { 'content-type': 'application/json' })
    response.end(JSON.stringify({ keys: jwks.keys }))
  })
  let port = 0
  /** Listens (again, on the same port). */
  const listen = () =>
    new Promise<void>((resolve) =>
      server.listen(port, '127.0.0.1', () => {
        port = (server.address() as AddressInfo).port
        resolve()
      }),
    )
  await listen()
  const url = `http://127.0.0.1:${port}/.well-known/jwks.json`
  const close = () =>
    new Promise<void>((resolve) => {
      if (!server.listening) return resolve()
      server.close(() => resolve())
      server.closeAllConnections()
    })
  return { jwks, url, listen, close }
}

/** A new key pair of `alg`: its public JWK (with `kid`) and a signer of tokens with it. */
async function keyOf(alg: 'RS256' | 'ES256', kid: string) {
  const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true })
  const jwk = { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' }
  const sign = (claims: JWTPayload = {}) =>
    new SignJWT({ sub: 'jwks-user', exp: now() + 600, ...claims })
      .setProtectedHeader({ alg, kid })
      .sign(privateKey)
  return { jwk, sign, pem: await exportSPKI(publicKey) }
}

describe('RS256 and ES256 (AUTH_JWKS_URL)', () => {
  let jwksServer: Awaited<ReturnType<typeof serveJwks>>
  let server: TestServer
  let rsa: Awaited<ReturnType<typeof keyOf>>
  let ec: Awaited<ReturnType<typeof keyOf>>

  beforeAll(async () => {
    jwksServer = await serveJwks()
    ;[rsa, ec] = await Promise.all([keyOf('RS256', 'rsa-1'), keyOf('ES256', 'ec-1')])
    jwksServer.jwks.keys = [rsa.jwk, ec.jwk]
    server = await startServer({ settings: { authJwksUrl: jwksServer.url } })
  })

  afterAll(async () => {
    await server?.close()
    await jwksServer?.close()
  })

  it('takes RS256 and ES256 tokens signed with keys of the set', async () => {
    for (const key of [rsa, ec]) {
      const me = await as(server, await key.sign()).get('/me')
      expect(expectStatus(me, 200)).toMatchObject({ principal: 'jwks-user', role: 'write' })
    }
  })

  it('refuses an HS256 token signed with the RSA public key as its secret', async () => {
    const confused = await new SignJWT({ sub: 'jwks-user', exp: now() + 600 })
      .setProtectedHeader({ alg: 'HS256', kid: 'rsa-1' })
      .sign(new TextEncoder().encode(rsa.pem))
    await expectRefused(
      server,
      confused,
      'The JWT is signed with an algorithm this server does not accept.',
    )
  })

  it('follows a rotation: a token with the new key works within a second, without a restart', async () => {
    expectStatus(await as(server, await rsa.sign()).get('/me'), 200)
    const next = await keyOf('RS256', 'rsa-2')
    jwksServer.jwks.keys = [next.jwk]
    // The set is fetched again for a key it lacks at most once a second.
    await new Promise((resolve) => setTimeout(resolve, 1100))
    const me = await as(server, await next.sign({ sub: 'rotated' })).get('/me')
    expect(expectStatus(me, 200)).toMatchObject({ principal: 'rotated' })
  })

  it('answers 503 (not 401) while the JWKS cannot be had, and takes tokens once it can', async () => {
    const keys = await serveJwks()
    const server = await startServer({ settings: { authJwksUrl: keys.url } })
    try {
      const token = await rsa.sign({ sub: 'patient' })
      const message =
        'The keys to check the JWT with could not be fetched; retry the request shortly.'
      // Its server answers 500, then is gone (connection refused).
      keys.jwks.status = 500
      for (const stop of [async () => {}, keys.close]) {
        await stop()
        const response = await as(server, token).get('/me')
        expectErrorBody(response, 503, message)
        expect(response.headers['retry-after']).toMatch(/^\d+$/)
      }
      await keys.listen()
      keys.jwks.status = 200
      keys.jwks.keys = [rsa.jwk]
      expect(expectStatus(await as(server, token).get('/me'), 200)).toMatchObject({
        principal: 'patient',
      })
    } finally {
      await server.close()
      await keys.close()
    }
  })
})
