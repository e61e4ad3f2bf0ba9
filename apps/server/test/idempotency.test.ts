import { mkdtemp, rm } from 'node:fs/promises'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Task } from '@tasklane/contract'
import type { FastifyInstance } from 'fastify'
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest'
import { buildApp } from '../src/app.js'
import { type Database, openDatabase } from '../src/db/database.js'
import { purgeIdempotencyKeys } from '../src/tasks/repository.js'
import { createTaskWriter, IDEMPOTENCY_TTL_MS } from '../src/tasks/writer.js'
import { expectError } from './helpers.js'
import { kill9, killAll, startServerProcess, within } from './server-process.js'

const IN_PROGRESS =
  'A request with this Idempotency-Key is still in progress; retry after it completes.'
const OTHER_BODY = 'This Idempotency-Key was already used with a different request body.'
const BAD_KEY = 'Header "idempotency-key" must be 1 to 255 visible ASCII characters.'

interface Served {
  readonly url: string
  readonly port: number
  readonly database: Database
  close(): Promise<void>
}

const open: Served[] = []

/** The app on `filename` (which may already hold tasks), listening on an ephemeral port. */
async function serve(filename: string, wrap = (database: Database) => database): Promise<Served> {
  const database = await openDatabase({ kind: 'sqlite', filename })
  const app: FastifyInstance = await buildApp({ database: wrap(database) })
  await app.listen({ port: 0, host: '127.0.0.1' })
  const { port } = app.server.address() as { port: number }
  let closed = false
  const served: Served = {
    url: `http://127.0.0.1:${port}`,
    port,
    database,
    async close() {
      if (closed) return
      closed = true
      await app.close()
      await database.close()
    },
  }
  open.push(served)
  return served
}

function post(
  server: { url: string },
  body: unknown,
  key?: string,
  raw = JSON.stringify(body),
): Promise<Response> {
  return fetch(`${server.url}/task`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(key !== undefined && { 'idempotency-key': key }),
    },
    body: raw,
  })
}

async function listAll(server: { url: string }): Promise<Task[]> {
  return (await (await fetch(`${server.url}/tasks`)).json()) as Task[]
}

/** A 201 as the client sees it: the parts a replay must repeat exactly. */
async function created(response: Response) {
  return {
    status: response.status,
    location: response.headers.get('location'),
    replayed: response.headers.get('idempotent-replayed'),
    body: await response.text(),
  }
}

/** Sends raw bytes (headers a fetch client refuses to send) and reads the whole answer. */
function rawPost(port: number, keyHeaderValue: Buffer): Promise<{ status: number; body: string }> {
  const body = '{"name":"raw"}'
  const head = Buffer.from(
    `POST /task HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\nIdempotency-Key: `,
    'latin1',
  )
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    const chunks: Buffer[] = []
    socket.on('data', (chunk) => chunks.push(chunk))
    socket.on('error', reject)
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8')
      const [headers = '', payload = ''] = text.split('\r\n\r\n')
      resolve({ status: Number(headers.split(' ')[1]), body: payload })
    })
    socket.end(Buffer.concat([head, keyHeaderValue, Buffer.from(`\r\n\r\n${body}`)]))
  })
}

let dir: string
let filename: string

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tasklane-idempotency-'))
  filename = join(dir, 'tasks.db')
})

afterEach(async () => {
  for (const served of open.splice(0)) await served.close()
  await killAll()
  await rm(dir, { recursive: true, force: true })
})

afterAll(killAll)

describe('Idempotency-Key on POST /task', () => {
  it('replays the original 201 (same id, body and Location) with Idempotent-Replayed: true', async () => {
    const server = await serve(filename)
    const first = await created(await post(server, { name: 'Pay rent', tag: 'home' }, 'k-1'))
    const task = JSON.parse(first.body) as Task
    expect(first).toEqual({
      status: 201,
      location: `/tasks/${task.id}`,
      replayed: null,
      body: JSON.stringify({ id: task.id, name: 'Pay rent', tag: 'home' }),
    })
    const again = await created(await post(server, { name: 'Pay rent', tag: 'home' }, 'k-1'))
    expect(again).toEqual({ ...first, replayed: 'true' })
    // The same task written differently (key order, spacing) is the same body.
    const reordered = await post(server, {}, 'k-1', '{ "tag": "home",\n  "name": "Pay rent" }')
    expect(await created(reordered)).toEqual({ ...first, replayed: 'true' })
    expect(await listAll(server)).toEqual([task])
  })

  it('creates a task for each distinct key, and for each request without a key', async () => {
    const server = await serve(filename)
    const a = await created(await post(server, { name: 'same' }, 'key-a'))
    const b = await created(await post(server, { name: 'same' }, 'key-b'))
    const c = await created(await post(server, { name: 'same' }))
    const d = await created(await post(server, { name: 'same' }))
    expect([a, b, c, d].map((r) => [r.status, r.replayed])).toEqual(Array(4).fill([201, null]))
    expect((await listAll(server)).map((task) => task.id)).toEqual(
      [a, b, c, d].map((r) => (JSON.parse(r.body) as Task).id),
    )
  })

  it('answers 422 when the key comes back with a different body, and still replays the first', async () => {
    const server = await serve(filename)
    const first = await created(await post(server, { name: 'Call Ann', tag: 'phone' }, 'k-422'))
    for (const other of [
      { name: 'Call Bob', tag: 'phone' },
      { name: 'Call Ann', tag: 'email' },
      { name: 'Call Ann' },
    ]) {
      await expectError(await post(server, other, 'k-422'), 422, OTHER_BODY)
    }
    const without = await post(server, { name: 'Call Ann' }, 'k-untagged')
    expect(without.status).toBe(201)
    await expectError(
      await post(server, { name: 'Call Ann', tag: 'x' }, 'k-untagged'),
      422,
      OTHER_BODY,
    )
    const again = await created(await post(server, { name: 'Call Ann', tag: 'phone' }, 'k-422'))
    expect(again).toEqual({ ...first, replayed: 'true' })
    expect(await listAll(server)).toHaveLength(2)
  })

  it('answers 409 to a repeat while the first request with the key is still in flight', async () => {
    // The first create is held on its way to the database, before its commit, until released.
    let release!: () => void
    const released = new Promise<void>((resolve) => {
      release = resolve
    })
    let entered!: () => void
    const inTransaction = new Promise<void>((resolve) => {
      entered = resolve
    })
    const server = await serve(filename, (database) => ({
      ...database,
      writeTasks: async (items, now, notBefore) => {
        entered()
        await released
        return database.writeTasks(items, now, notBefore)
      },
    }))
    const first = post(server, { name: 'Slow one' }, 'k-409')
    await within(inTransaction, 5_000, 'the first create reaching its transaction')
    await expectError(await post(server, { name: 'Slow one' }, 'k-409'), 409, IN_PROGRESS)
    // The conflict is about the key, whatever the body.
    await expectError(await post(server, { name: 'Other' }, 'k-409'), 409, IN_PROGRESS)
    const pending = await Promise.race([first.then(() => 'answered'), Promise.resolve('pending')])
    expect(pending).toBe('pending')

    release()
    const answer = await created(await first)
    expect([answer.status, answer.replayed]).toEqual([201, null])
    const replay = await created(await post(server, { name: 'Slow one' }, 'k-409'))
    expect(replay).toEqual({ ...answer, replayed: 'true' })
    expect(await listAll(server)).toHaveLength(1)
  })

  it('rejects a key that is not 1 to 255 visible ASCII characters with 400, creating nothing', async () => {
    const server = await serve(filename)
    const cases: [string, string][] = [
      ['', 'Header "idempotency-key" must be at least 1 character long.'],
      ['k'.repeat(256), 'Header "idempotency-key" must be at most 255 characters long.'],
      ['clé', BAD_KEY],
      ['two words', BAD_KEY],
      ['tab\there', BAD_KEY],
    ]
    for (const [key, message] of cases) {
      await expectError(await post(server, { name: 'x' }, key), 400, message)
    }
    // Bytes a fetch client will not send. UTF-8 arrives (as Latin-1) and is refused by name;
    // a control character or DEL is refused by the HTTP parser itself, before any route.
    const utf8 = await rawPost(server.port, Buffer.from('ключ', 'utf8'))
    expect(utf8).toEqual({ status: 400, body: JSON.stringify({ code: 400, message: BAD_KEY }) })
    for (const bytes of ['ctl\x01', 'del\x7f', 'esc\x1b']) {
      const answer = await rawPost(server.port, Buffer.from(bytes, 'latin1'))
      expect(answer).toEqual({
        status: 400,
        body: JSON.stringify({ code: 400, message: 'The request is malformed.' }),
      })
    }
    expect(await listAll(server)).toEqual([])

    // The limits themselves are fine: 255 characters, and every visible ASCII character.
    const visible = Array.from({ length: 94 }, (_, i) => String.fromCharCode(33 + i)).join('')
    for (const key of ['k'.repeat(255), visible, '!']) {
      expect((await post(server, { name: key.slice(0, 10) }, key)).status).toBe(201)
    }
  })

  it('replays across a restart on the same database', async () => {
    const before = await serve(filename)
    const first = await created(
      await post(before, { name: 'Survive', tag: 'restart' }, 'k-restart'),
    )
    await before.close()
    const after = await serve(filename)
    const replay = await created(
      await post(after, { name: 'Survive', tag: 'restart' }, 'k-restart'),
    )
    expect(replay).toEqual({ ...first, replayed: 'true' })
    await expectError(await post(after, { name: 'Other' }, 'k-restart'), 422, OTHER_BODY)
    expect(await listAll(after)).toHaveLength(1)
  })

  it('replays for 24 hours; afterwards the key creates anew', async () => {
    const server = await serve(filename)
    let now = Date.parse('2030-01-01T00:00:00Z')
    const writer = createTaskWriter(server.database, { now: () => now })
    const first = await writer.create({ name: 'Daily' }, 'k-ttl')
    expect(first.replayed).toBe(false)
    now += IDEMPOTENCY_TTL_MS - 1_000
    expect(await writer.create({ name: 'Daily' }, 'k-ttl')).toEqual({ ...first, replayed: true })
    now += 2_000
    const fresh = await writer.create({ name: 'Daily' }, 'k-ttl')
    expect(fresh.replayed).toBe(false)
    expect(fresh.task.id).toBeGreaterThan(first.task.id)
    // The key now stands for the new task, for another 24 hours.
    now += IDEMPOTENCY_TTL_MS - 1_000
    expect(await writer.create({ name: 'Daily' }, 'k-ttl')).toEqual({ ...fresh, replayed: true })
    await writer.close()
  })

  it('purges keys older than 24 hours, at start and through purgeIdempotencyKeys', async () => {
    const setup = await serve(filename)
    const old = await created(await post(setup, { name: 'Old' }, 'k-old'))
    const recent = await created(await post(setup, { name: 'Recent' }, 'k-recent'))
    const { db } = setup.database
    const dayAgo = Date.now() - IDEMPOTENCY_TTL_MS
    await db
      .updateTable('idempotency_keys')
      .set({ created_at: dayAgo - 60_000 })
      .where('key', '=', 'k-old')
      .execute()
    await setup.close()

    const server = await serve(filename)
    const keys = await server.database.db.selectFrom('idempotency_keys').select('key').execute()
    expect(keys.map((row) => row.key)).toEqual(['k-recent'])
    const again = await created(await post(server, { name: 'Old' }, 'k-old'))
    expect([again.status, again.replayed]).toEqual([201, null])
    expect(JSON.parse(again.body)).not.toEqual(JSON.parse(old.body))
    expect((await created(await post(server, { name: 'Recent' }, 'k-recent'))).replayed).toBe(
      'true',
    )

    const stale = Date.now() - IDEMPOTENCY_TTL_MS - 1
    await server.database.db
      .updateTable('idempotency_keys')
      .set({ created_at: stale })
      .where('key', '=', 'k-recent')
      .execute()
    expect(await purgeIdempotencyKeys(server.database.db, Date.now() - IDEMPOTENCY_TTL_MS)).toBe(1)
    expect(await purgeIdempotencyKeys(server.database.db, Date.now() - IDEMPOTENCY_TTL_MS)).toBe(0)
    const left = await server.database.db.selectFrom('idempotency_keys').select('key').execute()
    expect(left.map((row) => row.key)).toEqual(['k-old'])
    expect(JSON.parse(recent.body)).toMatchObject({ name: 'Recent' })
  })

  it('makes exactly one task from 100 sequential repeats of one key', async () => {
    const server = await serve(filename)
    const answers = []
    for (let i = 0; i < 100; i++)
      answers.push(await created(await post(server, { name: 'Once' }, 'k-100')))
    const [first, ...rest] = answers
    expect(first?.replayed).toBeNull()
    for (const answer of rest) expect(answer).toEqual({ ...first, replayed: 'true' })
    expect(await listAll(server)).toEqual([JSON.parse(first?.body ?? '')])
  })

  it('makes exactly one task from 50 parallel repeats of one key; the others get 409 or the replay', async () => {
    const server = await serve(filename)
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => post(server, { name: 'Parallel' }, 'k-50')),
    )
    const answers = await Promise.all(responses.map(created))
    const originals = answers.filter((a) => a.status === 201 && a.replayed === null)
    expect(originals).toHaveLength(1)
    const [original] = originals
    for (const answer of answers) {
      if (answer.status === 201) expect(answer.body).toBe(original?.body)
      else
        expect(answer).toMatchObject({
          status: 409,
          body: JSON.stringify({ code: 409, message: IN_PROGRESS }),
        })
    }
    // Each client that got 409 retries, and gets the original.
    const conflicts = answers.filter((a) => a.status === 409).length
    for (let i = 0; i < conflicts; i++) {
      expect(await created(await post(server, { name: 'Parallel' }, 'k-50'))).toEqual({
        ...original,
        replayed: 'true',
      })
    }
    expect(await listAll(server)).toEqual([JSON.parse(original?.body ?? '')])
  })
})

describe('Idempotency-Key after kill -9 mid-batch (real process)', () => {
  it('retrying every request with its key creates no duplicate; each key maps to one task', async () => {
    const CLIENTS = 24
    const sent: { key: string; body: { name: string; tag?: string }; id?: number }[] = []
    let server = await startServerProcess(filename)
    const client = async (c: number) => {
      for (let i = 0; ; i++) {
        const request = {
          key: `crash-${c}-${i}`,
          body: { name: `keyed ${c}/${i}`, ...(i % 2 === 0 && { tag: `t${c}` }) },
        } as (typeof sent)[number]
        sent.push(request)
        let answer: { status: number; body: string }
        try {
          answer = await created(await post(server, request.body, request.key))
        } catch {
          return // the process died under this request: no answer, no promise
        }
        expect(answer.status).toBe(201)
        request.id = (JSON.parse(answer.body) as Task).id
      }
    }
    const load = Promise.all(Array.from({ length: CLIENTS }, (_, c) => client(c)))
    await new Promise((resolve) => setTimeout(resolve, 400 + Math.random() * 400))
    await kill9(server)
    await within(load, 10_000, 'the clients noticing the crash')
    const unanswered = sent.filter((request) => request.id === undefined)
    expect(unanswered.length, 'no request was in flight at the kill').toBeGreaterThan(0)
    expect(sent.length - unanswered.length).toBeGreaterThan(0)

    server = await startServerProcess(filename)
    const committedUnanswered = (await listAll(server)).length - (sent.length - unanswered.length)
    for (const request of sent) {
      const answer = await created(await post(server, request.body, request.key))
      const task = JSON.parse(answer.body) as Task
      expect(answer.status).toBe(201)
      expect(task).toEqual({ id: task.id, ...request.body })
      // Acknowledged before the crash: the very same task, replayed.
      if (request.id !== undefined) expect([task.id, answer.replayed]).toEqual([request.id, 'true'])
      request.id = task.id
    }
    const tasks = await listAll(server)
    expect(tasks).toHaveLength(sent.length)
    expect(new Set(tasks.map((task) => task.name)).size).toBe(sent.length)
    expect(new Set(sent.map((request) => request.id)).size).toBe(sent.length)
    const byId = new Map(tasks.map((task) => [task.id, task]))
    for (const request of sent)
      expect(byId.get(request.id as number)).toEqual({ id: request.id, ...request.body })
    console.log(
      `keyed crash: ${sent.length} requests, ${unanswered.length} unanswered at the kill, ` +
        `${committedUnanswered} of those committed and replayed on retry`,
    )
    // A second retry of everything changes nothing.
    for (const request of sent.slice(0, 50)) {
      const answer = await created(await post(server, request.body, request.key))
      expect([JSON.parse(answer.body).id, answer.replayed]).toEqual([request.id, 'true'])
    }
    expect(await listAll(server)).toHaveLength(sent.length)
  }, 60_000)
})
