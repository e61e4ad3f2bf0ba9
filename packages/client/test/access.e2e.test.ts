// Lists, members, access tokens and JWTs against a real server with credentials switched
// on (API_TOKEN and AUTH_JWT_SECRET): what each principal sees and may do.
import { randomBytes } from 'node:crypto'
import { startServer } from '@tasklane/testing/server'
import { SignJWT } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type Access,
  ApiError,
  createClient,
  type List,
  PreconditionFailedError,
  type Task,
  type TaskEvent,
  type TasklaneClient,
} from '../src/index.js'
import { LiveTasks } from '../src/live.js'
import { validateResponses } from '../src/validate.js'
import { tcpProxy } from './proxies.js'

const API_TOKEN = `admin-${randomBytes(16).toString('hex')}`
const JWT_SECRET = randomBytes(32).toString('hex')

let server: Awaited<ReturnType<typeof startServer>>
let admin: TasklaneClient

beforeAll(async () => {
  server = await startServer({ apiToken: API_TOKEN, env: { AUTH_JWT_SECRET: JWT_SECRET } })
  // Every answer checked against the contract on the way, the new schemas among them.
  admin = createClient({ baseUrl: server.url, token: API_TOKEN, validate: validateResponses })
})
afterAll(() => server.close())

/** A client acting as `principal`, through an access token the admin makes for it. */
async function clientOf(principal: string, role: Access = 'write', baseUrl = server.url) {
  const made = await admin.createToken({ name: `for ${principal}`, principal, role })
  return { client: createClient({ baseUrl, token: made.token, validate: validateResponses }), made }
}

/** A JWT for `sub`, signed with the server's secret; `expiresIn` seconds from now (negative: expired). */
const jwt = (sub: string, claims: { tasklane_role?: 'read' | 'write' } = {}, expiresIn = 300) =>
  new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(sub)
    .setExpirationTime(Math.floor(Date.now() / 1000) + expiresIn)
    .sign(new TextEncoder().encode(JWT_SECRET))

/** What a call rejected with. */
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (e: unknown) => e,
  )

/** Resolves once `done()` holds, checked now and after each change of `live`. */
const until = (live: LiveTasks, done: () => boolean) =>
  new Promise<void>((resolve) => {
    const check = () => {
      if (done()) {
        off()
        resolve()
      }
    }
    const off = live.subscribe(check)
    check()
  })

describe('lists and people against a real server', () => {
  let shared: List
  let hidden: List
  let sharedTask: Task
  let hiddenTask: Task
  let alice: TasklaneClient

  beforeAll(async () => {
    shared = await admin.createList({ name: 'Shared with alice' })
    hidden = await admin.createList({ name: 'Admin only' })
    sharedTask = await admin.createTask({ name: 'In the shared list', listId: shared.id })
    hiddenTask = await admin.createTask({ name: 'In the hidden list', listId: hidden.id })
    ;({ client: alice } = await clientOf('alice'))
  })

  it('a member token sees only the lists its principal is a member of, and their tasks', async () => {
    expect(await alice.listLists()).toEqual([])
    expect(await alice.listTasks()).toEqual([])
    const put = await admin.putMember(shared.id, 'alice', 'editor')
    expect(put).toEqual({ member: { principal: 'alice', role: 'editor' }, created: true })

    expect(await alice.listLists()).toEqual([shared])
    expect(await alice.listTasks()).toEqual([sharedTask])
    expect(await alice.listTasks(undefined, { list: shared.id })).toEqual([sharedTask])
    const mine = await alice.createTask({ name: 'Mine', listId: shared.id })
    expect(mine).toMatchObject({ listId: shared.id, createdBy: 'alice', updatedBy: 'alice' })
    expect(await admin.completeTask(mine.id)).toMatchObject({
      createdBy: 'alice',
      updatedBy: 'admin',
    })
    expect(await alice.me()).toEqual({
      principal: 'alice',
      role: 'write',
      roles: [{ listId: shared.id, role: 'editor' }],
    })
  })

  it('answers 404 for a list or task the caller cannot read, exactly as for a missing one', async () => {
    for (const call of [
      () => alice.getList(hidden.id),
      () => alice.getTask(hiddenTask.id),
      () => alice.listTasks(undefined, { list: hidden.id }),
      () => alice.listMembers(hidden.id),
      () => alice.updateList(hidden.id, { name: 'Mine now' }),
    ]) {
      const error = await failure(call())
      expect(error).toBeInstanceOf(ApiError)
      expect(error).toMatchObject({ status: 404 })
    }
    expect(await admin.getList(hidden.id)).toEqual(hidden)
  })

  it('gives a viewer the list and its tasks, and a 403 naming what is missing for a change', async () => {
    await admin.putMember(hidden.id, 'alice', 'viewer')
    expect(await alice.getList(hidden.id)).toEqual(hidden)
    expect(await alice.getTask(hiddenTask.id)).toEqual(hiddenTask)
    for (const call of [
      () => alice.updateList(hidden.id, { name: 'Renamed' }),
      () => alice.deleteList(hidden.id),
      () => alice.createTask({ name: 'Not here', listId: hidden.id }),
      () => alice.updateTask(hiddenTask.id, { name: 'Renamed' }),
      () => alice.putMember(hidden.id, 'alice', 'owner'),
    ]) {
      const error = (await failure(call())) as ApiError
      expect(error).toBeInstanceOf(ApiError)
      expect(error).toMatchObject({ status: 403, code: 403 })
      expect(error.message).toMatch(/needs the (editor|owner) role; you have the viewer role/)
    }
    expect(await admin.removeMember(hidden.id, 'alice')).toBeUndefined()
    await expect(alice.getList(hidden.id)).rejects.toMatchObject({ status: 404 })
  })

  it('puts members in and changes their roles, and never removes the last owner', async () => {
    const team = await admin.createList({ name: 'Team' })
    expect(await admin.listMembers(team.id)).toEqual([{ principal: 'admin', role: 'owner' }])
    expect(await admin.putMember(team.id, 'bob@example.com', 'viewer')).toMatchObject({
      created: true,
    })
    expect(await admin.putMember(team.id, 'bob@example.com', 'owner')).toEqual({
      member: { principal: 'bob@example.com', role: 'owner' },
      created: false,
    })
    await admin.removeMember(team.id, 'admin')
    expect(await admin.listMembers(team.id)).toEqual([
      { principal: 'bob@example.com', role: 'owner' },
    ])
    const last = await failure(admin.removeMember(team.id, 'bob@example.com'))
    expect(last).toMatchObject({ status: 409 })
  })

  it('pages through lists, renames one with ifMatch and deletes it with its tasks', async () => {
    for (const name of ['One', 'Two', 'Three']) await admin.createList({ name })
    const all = await admin.listLists()
    const walked: List[] = []
    for await (const list of admin.lists({ pageSize: 2 })) walked.push(list)
    expect(walked).toEqual(all)
    expect(all.length).toBeGreaterThanOrEqual(6)
    expect(await admin.listLists(2, { after: all[0]?.id })).toEqual(all.slice(1, 3))

    const doomed = all.at(-1) as List
    const renamed = await admin.updateList(doomed.id, { name: 'Renamed' }, { ifMatch: 1 })
    expect(renamed).toMatchObject({ name: 'Renamed', version: 2 })
    const stale = await failure(admin.updateList(doomed.id, { name: 'Again' }, { ifMatch: 1 }))
    expect(stale).toBeInstanceOf(PreconditionFailedError)
    expect(stale).toMatchObject({ status: 412, version: 2 })
    expect(await admin.getList(doomed.id, { ifNoneMatch: 2 })).toBeUndefined()

    const inside = await admin.createTask({ name: 'Goes with its list', listId: doomed.id })
    await admin.deleteList(doomed.id, { ifMatch: 2 })
    await expect(admin.getList(doomed.id)).rejects.toMatchObject({ status: 404 })
    await expect(admin.getTask(inside.id)).rejects.toMatchObject({ status: 404 })
  })

  it('makes a token with its secret once, lists it without, and revokes it at once', async () => {
    const { client: bot, made } = await clientOf('ci-bot', 'read')
    expect(made).toMatchObject({ principal: 'ci-bot', role: 'read', createdBy: 'admin' })
    expect(made.token).toMatch(/^tl_[A-Za-z0-9_-]{43,}$/)
    const { token: _secret, ...record } = made
    const listed = await admin.listTokens()
    expect(listed).toContainEqual(record)
    expect(listed.some((each) => 'token' in each)).toBe(false)
    expect(await bot.me()).toEqual({ principal: 'ci-bot', role: 'read', roles: [] })

    await admin.revokeToken(made.id)
    const refused = (await failure(bot.me())) as ApiError
    expect(refused).toMatchObject({ name: 'ApiError', status: 401 })
    expect(refused.response.headers.get('www-authenticate')).toBe(
      'Bearer realm="tasklane", error="invalid_token"',
    )
    await expect(admin.revokeToken(made.id)).rejects.toMatchObject({ status: 404 })
  })

  it('a read token reads what its principal may, and changes nothing', async () => {
    const { client: reader } = await clientOf('alice', 'read')
    expect(await reader.listTasks(undefined, { list: shared.id })).toContainEqual(sharedTask)
    const refused = await failure(reader.createTask({ name: 'No', listId: shared.id }))
    expect(refused).toMatchObject({ status: 403 })
    await expect(reader.createList({ name: 'No' })).rejects.toMatchObject({ status: 403 })
  })

  it('follows one list: the feed and a live copy see its tasks only, a task moved out as deleted', async () => {
    const after = await server.seq()
    const stop = new AbortController()
    const live = new LiveTasks(alice, { list: shared.id, signal: stop.signal })
    const events: TaskEvent[] = []
    const watching = (async () => {
      for await (const event of alice.watch({ list: shared.id, after, signal: stop.signal })) {
        events.push(event)
      }
    })()
    try {
      const moved = await alice.createTask({ name: 'Moves away', listId: shared.id })
      await admin.createTask({ name: 'Elsewhere', listId: hidden.id })
      await admin.updateTask(moved.id, { listId: hidden.id })
      const stays = await alice.createTask({ name: 'Stays', listId: shared.id })
      await until(live, () => live.caughtUp && live.tasks.some((task) => task.id === stays.id))
      expect(live.tasks.map((task) => task.listId)).toEqual(live.tasks.map(() => shared.id))
      expect(live.tasks).toEqual(await alice.listTasks(undefined, { list: shared.id }))
      await expect.poll(() => events.at(-1)?.task?.id).toBe(stays.id)
      expect(events.map(({ type, task }) => [type, task?.id])).toEqual([
        ['created', moved.id],
        ['deleted', moved.id],
        ['created', stays.id],
      ])
    } finally {
      stop.abort()
      await watching
    }
  })

  it('keeps a live copy exact when its caller gains or loses a list (a reset, or the events of the view)', async () => {
    const { client: frank } = await clientOf('frank')
    const lent = await admin.createList({ name: 'Lent to frank' })
    const lentTask = await admin.createTask({ name: 'Lent', listId: lent.id })
    const live = new LiveTasks(frank)
    const holdsLent = () => live.tasks.some((task) => task.id === lentTask.id)
    try {
      await until(live, () => live.caughtUp)
      expect(live.tasks).toEqual([])
      await admin.putMember(lent.id, 'frank', 'viewer')
      await until(live, () => live.caughtUp && holdsLent())
      expect(live.tasks).toEqual(await frank.listTasks())
      await admin.removeMember(lent.id, 'frank')
      await until(live, () => live.caughtUp && !holdsLent())
      expect(live.tasks).toEqual(await frank.listTasks())
      expect(live.error).toBeUndefined()
    } finally {
      live.close()
    }
  })
})

describe('credentials against a real server', () => {
  it('asks a token function again after a 401 and sends the request again, once', async () => {
    const handed = [await jwt('carol', {}, -3600), await jwt('carol')]
    let asked = 0
    const carol = createClient({ baseUrl: server.url, token: async () => handed[asked++] ?? '' })
    expect(await carol.me()).toMatchObject({ principal: 'carol' })
    expect(asked).toBe(2)

    // A string is sent once: its 401 is the answer.
    let sent = 0
    const counting: typeof fetch = (input, init) => {
      sent++
      return fetch(input, init)
    }
    const stale = createClient({ baseUrl: server.url, token: handed[0], fetch: counting })
    await expect(stale.me()).rejects.toMatchObject({ status: 401 })
    expect(sent).toBe(1)
  })

  it("takes a JWT's sub as the principal, narrowed by tasklane_role", async () => {
    const list = await admin.createList({ name: "Dan's" })
    await admin.putMember(list.id, 'dan', 'editor')
    const reading = createClient({
      baseUrl: server.url,
      token: await jwt('dan', { tasklane_role: 'read' }),
    })
    expect(await reading.me()).toEqual({
      principal: 'dan',
      role: 'read',
      roles: [{ listId: list.id, role: 'editor' }],
    })
    expect(await reading.listLists()).toEqual([list])
    await expect(reading.createTask({ name: 'No', listId: list.id })).rejects.toMatchObject({
      status: 403,
    })
    const writing = createClient({ baseUrl: server.url, token: () => jwt('dan') })
    expect(await writing.createTask({ name: 'Yes', listId: list.id })).toMatchObject({
      createdBy: 'dan',
    })
  })

  it('a live copy stops with the 401 when its token is revoked and its connection drops', async () => {
    const proxy = await tcpProxy(server.port)
    try {
      const { client: eve, made } = await clientOf('eve', 'write', proxy.url)
      const list = await eve.createList({ name: "Eve's" })
      const live = new LiveTasks(eve, { list: list.id, retry: { initialDelayMs: 10 } })
      await until(live, () => live.caughtUp)
      await admin.revokeToken(made.id)
      proxy.cut()
      await until(live, () => live.closed)
      expect(live.error).toBeInstanceOf(ApiError)
      expect(live.error).toMatchObject({ status: 401 })
    } finally {
      proxy.close()
    }
  })
})
