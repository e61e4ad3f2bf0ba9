import type { Task } from '@tasklane/contract'
import { exchange } from '@tasklane/testing/raw-http'
import { afterEach, describe, expect, it } from 'vitest'
import { LOCAL_CALLER } from '../src/domain/rights.js'
import type { Storage } from '../src/storage/open-storage.js'
import { IDEMPOTENCY_TTL_MS, TaskWriter } from '../src/tasks/task-writer.js'
import { aTask, expectError, listAll, postJson, postRaw, type Reachable } from './support/http.js'
import { within } from './support/processes.js'
import { type StartOptions, startServer, type TestServer } from './support/server.js'
import { createTestDatabase, type TestDatabase } from './support/test-database.js'

const IN_PROGRESS =
  'A request with this Idempotency-Key is still in progress; retry after it completes.'
const OTHER_BODY =
  'This Idempotency-Key was already used with a different request (another method, task or body).'
const BAD_KEY = 'Header "idempotency-key" must be 1 to 255 visible ASCII characters.'

const started: TestServer[] = []
const databases: TestDatabase[] = []

/** A server on a fresh database; closed (and the database dropped) after the test. */
async function serve(options: StartOptions = {}): Promise<TestServer> {
  const server = await startServer(options)
  started.push(server)
  return server
}

afterEach(async () => {
  for (const server of started.splice(0)) await server.close()
  for (const testDatabase of databases.splice(0)) await testDatabase.drop()
})

/** A 201 as the client sees it: the parts a replay must repeat exactly. */
async function created(response: Response) {
  return {
    status: response.status,
    location: response.headers.get('location'),
    etag: response.headers.get('etag'),
    seq: response.headers.get('tasklane-seq'),
    replayed: response.headers.get('idempotent-replayed'),
    body: await response.text(),
  }
}

const post = (server: Reachable, task: { name: string; tag?: string }, key?: string) =>
  postJson(server, task, key)

describe('Idempotency-Key on POST /task', () => {
  it('replays the original 201 (same id, body, Location, ETag and Tasklane-Seq) with Idempotent-Replayed: true', async () => {
    const server = await serve()
    const first = await created(await post(server, { name: 'Pay rent', tag: 'home' }, 'k-1'))
    const task = JSON.parse(first.body) as Task
    expect(task).toEqual(aTask({ name: 'Pay rent', tag: 'home' }))
    expect(first).toEqual({
      status: 201,
      location: `/tasks/${task.id}`,
      etag: '"1"',
      seq: expect.stringMatching(/^\d+$/),
      replayed: null,
      body: first.body,
    })
    // Other writes in between: the replay still answers the seq of its own create.
    await post(server, { name: 'in between' })
    const again = await created(await post(server, { name: 'Pay rent', tag: 'home' }, 'k-1'))
    expect(again).toEqual({ ...first, replayed: 'true' })
    // The same task written differently (key order, spacing) is the same body.
    const reordered = await postRaw(
      server,
      '{ "tag": "home",\n  "name": "Pay rent" }',
      'application/json',
      { 'idempotency-key': 'k-1' },
    )
    expect(await created(reordered)).toEqual({ ...first, replayed: 'true' })
    const listed = await listAll(server)
    expect(listed.map((each) => each.name)).toEqual(['Pay rent', 'in between'])
    expect(listed[0]).toEqual(task)
  })

  it('creates a task for each distinct key, and for each request without a key', async () => {
    const server = await serve()
    const answers = [
      await created(await post(server, { name: 'same' }, 'key-a')),
      await created(await post(server, { name: 'same' }, 'key-b')),
      await created(await post(server, { name: 'same' })),
      await created(await post(server, { name: 'same' })),
    ]
    expect(answers.map((r) => [r.status, r.replayed])).toEqual(Array(4).fill([201, null]))
    expect((await listAll(server)).map((task) => task.id)).toEqual(
      answers.map((r) => (JSON.parse(r.body) as Task).id),
    )
  })

  it('answers 422 when the key comes back with a different body, and still replays the first', async () => {
    const server = await serve()
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
    const server = await serve({
      wrapStorage: (storage): Storage => ({
        ...storage,
        write: async (items, now, notBefore) => {
          entered()
          await released
          return storage.write(items, now, notBefore)
        },
      }),
    })
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
    const server = await serve()
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
    const withKey = (value: Buffer) => {
      const body = '{"name":"raw"}'
      const head = `POST /task HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\nIdempotency-Key: `
      return exchange(server.port, [
        Buffer.concat([Buffer.from(head), value, Buffer.from(`\r\n\r\n${body}`)]),
      ])
    }
    await expectError(await withKey(Buffer.from('ключ', 'utf8')), 400, BAD_KEY)
    for (const bytes of ['ctl\x01', 'del\x7f', 'esc\x1b']) {
      await expectError(
        await withKey(Buffer.from(bytes, 'latin1')),
        400,
        'The request is malformed.',
      )
    }
    expect(await listAll(server)).toEqual([])

    // The limits themselves are fine: 255 characters, and every visible ASCII character.
    const visible = Array.from({ length: 94 }, (_, i) => String.fromCharCode(33 + i)).join('')
    for (const key of ['k'.repeat(255), visible, '!']) {
      expect((await post(server, { name: key.slice(0, 10) }, key)).status).toBe(201)
    }
  })

  it('replays across a restart on the same database', async () => {
    const testDatabase = await createTestDatabase()
    databases.push(testDatabase)
    const before = await serve({ testDatabase })
    const first = await created(
      await post(before, { name: 'Survive', tag: 'restart' }, 'k-restart'),
    )
    await before.close()
    const after = await serve({ testDatabase })
    const replay = await created(
      await post(after, { name: 'Survive', tag: 'restart' }, 'k-restart'),
    )
    expect(replay).toEqual({ ...first, replayed: 'true' })
    await expectError(await post(after, { name: 'Other' }, 'k-restart'), 422, OTHER_BODY)
    expect(await listAll(after)).toHaveLength(1)
  })

  it('replays for 24 hours; afterwards the key creates anew', async () => {
    const server = await serve()
    let now = Date.parse('2030-01-01T00:00:00Z')
    const writer = new TaskWriter(server.storage, { now: () => now })
    const daily = () =>
      writer.write({ caller: LOCAL_CALLER, kind: 'create', task: { name: 'Daily' }, key: 'k-ttl' })
    const first = await daily()
    expect(first.replayed).toBe(false)
    now += IDEMPOTENCY_TTL_MS - 1_000
    expect(await daily()).toEqual({ ...first, replayed: true })
    now += 2_000
    const fresh = await daily()
    expect(fresh.replayed).toBe(false)
    expect(fresh.task?.id).toBeGreaterThan(first.task?.id as number)
    expect(fresh.seq).toBeGreaterThan(first.seq)
    // The key now stands for the new task, for another 24 hours.
    now += IDEMPOTENCY_TTL_MS - 1_000
    expect(await daily()).toEqual({ ...fresh, replayed: true })
    await writer.close()
  })

  it('purges keys older than 24 hours, at start and through purgeIdempotencyKeys', async () => {
    const testDatabase = await createTestDatabase()
    databases.push(testDatabase)
    const keys = () =>
      testDatabase.use(async (db) =>
        (await db.selectFrom('idempotency_keys').select('key').orderBy('key').execute()).map(
          (row) => row.key,
        ),
      )
    const age = (key: string, createdAt: number) =>
      testDatabase.use((db) =>
        db
          .updateTable('idempotency_keys')
          .set({ created_at: createdAt })
          .where('key', '=', key)
          .execute(),
      )

    const setup = await serve({ testDatabase })
    const old = await created(await post(setup, { name: 'Old' }, 'k-old'))
    await post(setup, { name: 'Recent' }, 'k-recent')
    await age('k-old', Date.now() - IDEMPOTENCY_TTL_MS - 60_000)
    await setup.close()

    const server = await serve({ testDatabase })
    expect(await keys()).toEqual(['k-recent'])
    const again = await created(await post(server, { name: 'Old' }, 'k-old'))
    expect([again.status, again.replayed]).toEqual([201, null])
    expect(JSON.parse(again.body)).not.toEqual(JSON.parse(old.body))
    expect((await created(await post(server, { name: 'Recent' }, 'k-recent'))).replayed).toBe(
      'true',
    )

    await age('k-recent', Date.now() - IDEMPOTENCY_TTL_MS - 1)
    expect(
      await server.storage.purgeIdempotencyKeys(Date.now() - IDEMPOTENCY_TTL_MS, 1_000_000),
    ).toBe(1)
    expect(
      await server.storage.purgeIdempotencyKeys(Date.now() - IDEMPOTENCY_TTL_MS, 1_000_000),
    ).toBe(0)
    expect(await keys()).toEqual(['k-old'])
  })

  it('makes exactly one task from 100 sequential repeats of one key', async () => {
    const server = await serve()
    const answers = []
    for (let i = 0; i < 100; i++)
      answers.push(await created(await post(server, { name: 'Once' }, 'k-100')))
    const [first, ...rest] = answers
    expect(first?.replayed).toBeNull()
    for (const answer of rest) expect(answer).toEqual({ ...first, replayed: 'true' })
    expect(await listAll(server)).toEqual([JSON.parse(first?.body ?? '')])
  })

  it('makes exactly one task from 50 parallel repeats of one key; the others get 409 or the replay', async () => {
    const server = await serve()
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
