// The methods of lists, members and access tokens against a fake fetch: what each sends,
// and what it makes of the answers a real server cannot be made to give on demand.
import { describe, expect, expectTypeOf, it } from 'vitest'
import {
  type CreatedToken,
  createClient,
  type List,
  type Me,
  type Member,
  type PutMemberResult,
  type Token,
  ValidationError,
} from '../src/index.js'
import { validateResponses } from '../src/validate.js'
import { error, fast, json, recordingFetch } from './fake-fetch.js'

const list: List = {
  id: 2,
  name: 'Groceries',
  version: 1,
  createdAt: '2026-11-25T09:30:00.000Z',
  updatedAt: '2026-11-25T09:30:00.000Z',
}

const token: Token = {
  id: 3,
  name: 'CI',
  principal: 'ci-bot',
  role: 'write',
  createdAt: '2026-11-25T09:30:00.000Z',
  createdBy: 'admin',
}

describe('list methods', () => {
  it('sends each route its method, path, body and headers', async () => {
    const { calls, fetch } = recordingFetch((_call, _url, init) =>
      init?.method === 'DELETE' ? new Response(null, { status: 204 }) : json(list),
    )
    const client = createClient({ baseUrl: 'http://h/api', fetch })
    await client.listLists(10, { after: 1 })
    await client.createList({ name: 'Groceries' })
    await client.getList(2)
    await client.updateList(2, { name: 'Shopping' }, { ifMatch: 1 })
    await client.deleteList(2, { ifMatch: '"2"' })
    await client.listMembers(2)
    await client.removeMember(2, 'bob@example.com/x')
    expect(calls.map((c) => `${c.init?.method} ${c.url} ${c.init?.body ?? ''}`.trim())).toEqual([
      'GET http://h/api/lists?limit=10&after=1',
      'POST http://h/api/list {"name":"Groceries"}',
      'GET http://h/api/lists/2',
      'PATCH http://h/api/lists/2 {"name":"Shopping"}',
      'DELETE http://h/api/lists/2',
      'GET http://h/api/lists/2/members',
      'DELETE http://h/api/lists/2/members/bob%40example.com%2Fx',
    ])
    expect(calls[3]?.headers).toMatchObject({
      'content-type': 'application/merge-patch+json',
      'if-match': '"1"',
    })
    expect(calls[4]?.headers['if-match']).toBe('"2"')
    // Every create, change and delete carries a key of its own; reads carry none.
    const keys = calls.map((c) => c.headers['idempotency-key'])
    expect(keys.filter((key) => key !== undefined)).toHaveLength(4)
    expect(new Set(keys).size).toBe(5)
    expect([keys[0], keys[2], keys[5]]).toEqual([undefined, undefined, undefined])
  })

  it('getList resolves to undefined when the list still has the version of ifNoneMatch', async () => {
    const { calls, fetch } = recordingFetch(() => new Response(null, { status: 304 }))
    const client = createClient({ baseUrl: 'http://h', fetch })
    const same = await client.getList(2, { ifNoneMatch: 1 })
    expect(same).toBeUndefined()
    expect(calls[0]?.headers['if-none-match']).toBe('"1"')
    expectTypeOf(same).toEqualTypeOf<List | undefined>()
    expectTypeOf(client.getList(2)).resolves.toEqualTypeOf<List>()
  })

  it('lists() walks every page, following the Link header', async () => {
    const pages = [
      json([list, { ...list, id: 3 }], 200, { link: '</lists?limit=2&after=3>; rel="next"' }),
      json([{ ...list, id: 4 }]),
    ]
    const { calls, fetch } = recordingFetch((call) => pages[call] as Response)
    const client = createClient({ baseUrl: 'http://h', fetch })
    const ids: number[] = []
    for await (const each of client.lists({ pageSize: 2 })) ids.push(each.id)
    expect(ids).toEqual([2, 3, 4])
    expect(calls.map((c) => c.url)).toEqual([
      'http://h/lists?limit=2',
      'http://h/lists?limit=2&after=3',
    ])
    await expect(client.lists({ pageSize: 0 }).next()).rejects.toBeInstanceOf(RangeError)
  })

  it('putMember tells a new member (201) from a changed one (200), also when a retry is a replay', async () => {
    const member: Member = { principal: 'bob', role: 'editor' }
    const { calls, fetch } = recordingFetch((call) =>
      call === 1 ? error(503, { 'retry-after': '0' }) : json(member, call === 0 ? 200 : 201),
    )
    const client = createClient({ baseUrl: 'http://h', fetch, retry: fast })
    const changed = await client.putMember(2, 'bob', 'editor')
    expect(changed).toEqual({ member, created: false })
    const added = await client.putMember(2, 'bob', 'editor')
    expect(added).toEqual({ member, created: true })
    expectTypeOf(added).toEqualTypeOf<PutMemberResult>()
    expect(calls.map((c) => `${c.init?.method} ${c.url} ${c.init?.body}`)).toEqual([
      'PUT http://h/lists/2/members/bob {"role":"editor"}',
      'PUT http://h/lists/2/members/bob {"role":"editor"}',
      'PUT http://h/lists/2/members/bob {"role":"editor"}',
    ])
    // The retry sends its call's key again, so that the server answers the first response.
    expect(calls[2]?.headers['idempotency-key']).toBe(calls[1]?.headers['idempotency-key'])
    // @ts-expect-error: a role is viewer, editor or owner.
    await client.putMember(2, 'bob', 'admin').catch(() => {})
  })

  it.each(['.', '..'])(
    'refuses the principal %j, which a URL would take for a dot segment',
    async (principal) => {
      const { calls, fetch } = recordingFetch(() => json({}))
      const client = createClient({ baseUrl: 'http://h', fetch })
      await expect(client.putMember(1, principal, 'viewer')).rejects.toThrow(TypeError)
      await expect(client.removeMember(1, principal)).rejects.toThrow(/cannot be a segment/)
      expect(calls).toHaveLength(0)
    },
  )

  it('checks lists and members against the contract with validateResponses', async () => {
    const { fetch } = recordingFetch((call) =>
      call === 0 ? json([{ ...list, id: '2' }]) : json([{ principal: 'bob', role: 'boss' }]),
    )
    const client = createClient({ baseUrl: 'http://h', fetch, validate: validateResponses })
    await expect(client.listLists()).rejects.toMatchObject({ path: '[0].id' })
    await expect(client.listMembers(1)).rejects.toBeInstanceOf(ValidationError)
  })
})

describe('access methods', () => {
  it('createToken sends no Idempotency-Key and is never retried: its secret is shown once', async () => {
    const { calls, fetch } = recordingFetch(() => error(503, { 'retry-after': '0' }))
    const client = createClient({ baseUrl: 'http://h', fetch, retry: fast })
    const made = client.createToken({ name: 'CI', principal: 'ci-bot', role: 'write' })
    await expect(made).rejects.toMatchObject({ status: 503 })
    expect(calls).toHaveLength(1)
    expect(calls[0]?.init?.method).toBe('POST')
    expect(calls[0]?.url).toBe('http://h/tokens')
    expect(calls[0]?.init?.body).toBe('{"name":"CI","principal":"ci-bot","role":"write"}')
    expect(calls[0]?.headers).not.toHaveProperty('idempotency-key')
    expectTypeOf(made).resolves.toEqualTypeOf<CreatedToken>()
  })

  it('lists tokens, revokes one and reads the caller', async () => {
    const me: Me = { principal: 'alice', role: 'write', roles: [{ listId: 2, role: 'owner' }] }
    const { calls, fetch } = recordingFetch(
      (call) => [json([token]), new Response(null, { status: 204 }), json(me)][call] as Response,
    )
    const client = createClient({ baseUrl: 'http://h', fetch, validate: validateResponses })
    expect(await client.listTokens()).toEqual([token])
    expect(await client.revokeToken(3)).toBeUndefined()
    expect(await client.me()).toEqual(me)
    expect(calls.map((c) => `${c.init?.method} ${c.url}`)).toEqual([
      'GET http://h/tokens',
      'DELETE http://h/tokens/3',
      'GET http://h/me',
    ])
  })

  it('a 403 and a 401 are ApiErrors with their status, never retried', async () => {
    for (const status of [401, 403]) {
      const { calls, fetch } = recordingFetch(() => error(status))
      const client = createClient({ baseUrl: 'http://h', fetch, retry: fast })
      await expect(client.deleteList(2)).rejects.toMatchObject({ name: 'ApiError', status })
      expect(calls).toHaveLength(1)
    }
  })
})
