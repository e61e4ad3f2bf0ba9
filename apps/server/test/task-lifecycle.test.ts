// GET, PATCH and DELETE /tasks/{id}: over 300 lines because each rule of docs/api.md's task
// lifecycle (ETags, If-Match, 412, 304, merge patch, tombstones) is a test of its own.
import type { Task } from '@tasklane/contract'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  aTask,
  createTask,
  deleteRaw,
  deleteTask,
  expectError,
  get,
  jsonBody,
  patchRaw,
  patchTask,
  postJson,
  postRaw,
  seqOf,
} from './support/http.js'
import { startServer, type TestServer } from './support/server.js'

let server: TestServer

beforeAll(async () => {
  server = await startServer()
})

afterAll(async () => {
  await server?.close()
})

const TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/

describe('a new task', () => {
  it('is open, version 1, created and updated at the same time, with ETag "1"', async () => {
    const response = await postJson(server, { name: 'New' })
    expect(response.status).toBe(201)
    const task = (await response.json()) as Task
    expect(task).toEqual(aTask({ name: 'New' }))
    expect(task.createdAt).toBe(task.updatedAt)
    expect(Math.abs(Date.parse(task.createdAt) - Date.now())).toBeLessThan(60_000)
    expect(response.headers.get('etag')).toBe('"1"')
    expect(seqOf(response)).toBeGreaterThan(0)
  })

  it('can be created done', async () => {
    const task = await createTask(server, { name: 'Done already', status: 'done' })
    expect(task).toEqual(aTask({ name: 'Done already', status: 'done' }))
  })

  it('refuses a status other than open or done, naming the field', async () => {
    await expectError(
      await postJson(server, { name: 'x', status: 'closed' }),
      400,
      'Field "status" must be "open" or "done".',
    )
  })
})

describe('PATCH /tasks/{id}', () => {
  it('marks a task done and open again, one version more each time, with its ETag and seq', async () => {
    const task = await createTask(server, { name: 'Tick me' })
    const done = await patchRaw(server, task.id, { status: 'done' })
    expect(done.status).toBe(200)
    const doneTask = (await jsonBody(done)) as Task
    expect(doneTask).toEqual({
      ...task,
      status: 'done',
      version: 2,
      updatedAt: expect.stringMatching(TIME),
      completedAt: doneTask.updatedAt,
    })
    expect(done.headers.get('etag')).toBe('"2"')
    const reopened = await patchTask(server, task.id, { status: 'open' })
    expect(reopened).toMatchObject({ status: 'open', version: 3, createdAt: task.createdAt })
    expect(reopened).not.toHaveProperty('completedAt')
    expect(Date.parse(reopened.updatedAt)).toBeGreaterThanOrEqual(Date.parse(task.updatedAt))
  })

  it('renames, retags and removes the tag (null), leaving the other fields', async () => {
    const task = await createTask(server, { name: 'Typo', tag: 'a' })
    expect(await patchTask(server, task.id, { name: 'Fixed' })).toMatchObject({
      name: 'Fixed',
      tag: 'a',
    })
    expect(await patchTask(server, task.id, { tag: 'b' })).toMatchObject({
      name: 'Fixed',
      tag: 'b',
    })
    const untagged = await patchTask(server, task.id, { tag: null })
    expect(untagged).not.toHaveProperty('tag')
    expect(untagged).toMatchObject({ name: 'Fixed', version: 4 })
    expect(await jsonBody(await get(server, `/tasks/${task.id}`))).toEqual(untagged)
  })

  it('accepts application/json as well as application/merge-patch+json', async () => {
    const task = await createTask(server, { name: 'Plain JSON' })
    const response = await patchRaw(
      server,
      task.id,
      { status: 'done' },
      { 'content-type': 'application/json' },
    )
    expect(response.status).toBe(200)
  })

  it('answers a patch that changes nothing with the task exactly as it was, and its latest seq', async () => {
    const task = await createTask(server, { name: 'Same', tag: 't' })
    const before = await get(server, `/tasks/${task.id}`)
    const response = await patchRaw(server, task.id, { name: 'Same', tag: 't', status: 'open' })
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual(task)
    expect(response.headers.get('etag')).toBe('"1"')
    // Its latest change is the create, whatever happened to other tasks since.
    const seq = seqOf(response)
    expect(seq).toBeLessThanOrEqual(seqOf(before))
  })

  it.each([
    [
      'an empty patch',
      {},
      'The patch changes nothing: the request body must have at least one of "name", "tag", "status", "listId", "notes", "due" or "priority".',
    ],
    ['a null name', { name: null }, 'Field "name" must be a string.'],
    ['a null status', { status: null }, 'Field "status" must be "open" or "done".'],
    ['an unknown status', { status: 'closed' }, 'Field "status" must be "open" or "done".'],
    ['an empty name', { name: '' }, 'Field "name" must be at least 1 character long.'],
    [
      'a blank tag',
      { tag: '  ' },
      'Field "tag" must contain at least one non-whitespace character.',
    ],
    [
      'an id',
      { id: 9 },
      'Field "id" is not allowed; a TaskPatch has only an optional "name", an optional "tag", an optional "status", an optional "listId", an optional "notes", an optional "due" and an optional "priority".',
    ],
    [
      'a version',
      { version: 9 },
      'Field "version" is not allowed; a TaskPatch has only an optional "name", an optional "tag", an optional "status", an optional "listId", an optional "notes", an optional "due" and an optional "priority".',
    ],
    [
      'createdAt',
      { createdAt: '2026-01-01T00:00:00.000Z' },
      'Field "createdAt" is not allowed; a TaskPatch has only an optional "name", an optional "tag", an optional "status", an optional "listId", an optional "notes", an optional "due" and an optional "priority".',
    ],
    [
      'updatedAt',
      { updatedAt: '2026-01-01T00:00:00.000Z' },
      'Field "updatedAt" is not allowed; a TaskPatch has only an optional "name", an optional "tag", an optional "status", an optional "listId", an optional "notes", an optional "due" and an optional "priority".',
    ],
    ['an array', [], 'The request body must be a JSON object.'],
  ])(
    'refuses %s with 400, naming what is wrong, and changes nothing',
    async (_label, patch, message) => {
      const task = await createTask(server, { name: 'Untouched' })
      await expectError(await patchRaw(server, task.id, patch), 400, message)
      expect(await jsonBody(await get(server, `/tasks/${task.id}`))).toEqual(task)
    },
  )

  it('refuses a body that is not JSON, and another media type', async () => {
    const task = await createTask(server, { name: 'Untouched' })
    await expectError(
      await patchRaw(server, task.id, '{"name":'),
      400,
      'The request body is not valid JSON.',
    )
    await expectError(
      await patchRaw(server, task.id, '{"name":"a"}', { 'content-type': 'text/plain' }),
      415,
      'Content-Type must be application/merge-patch+json or application/json.',
    )
    const missing = await fetch(`${server.url}/tasks/${task.id}`, { method: 'PATCH' })
    await expectError(
      missing,
      415,
      'Content-Type must be application/merge-patch+json or application/json.',
    )
    expect(await jsonBody(await get(server, `/tasks/${task.id}`))).toEqual(task)
  })

  it.each([
    ['another media type', { 'content-type': 'text/plain' }],
    ['no Content-Type', { 'content-type': '' }],
    ['JSON in another charset', { 'content-type': 'application/json; charset=latin1' }],
  ])(
    'names the patch formats it takes in Accept-Patch on a 415 for %s (RFC 5789)',
    async (_label, headers) => {
      const task = await createTask(server, { name: 'Untouched' })
      const response = await (headers['content-type'] === ''
        ? fetch(`${server.url}/tasks/${task.id}`, { method: 'PATCH' })
        : patchRaw(server, task.id, '{"name":"a"}', headers))
      expect(response.status).toBe(415)
      expect(response.headers.get('accept-patch')).toBe(
        'application/merge-patch+json, application/json',
      )
    },
  )

  it('sends no Accept-Patch on a 415 of POST /task', async () => {
    const response = await postRaw(server, '{"name":"a"}', 'text/plain')
    expect(response.status).toBe(415)
    expect(response.headers.get('accept-patch')).toBeNull()
  })

  it('answers 404 for an unknown task and for a deleted one', async () => {
    await expectError(
      await patchRaw(server, 987_654, { name: 'x' }),
      404,
      'Task 987654 does not exist.',
    )
    const task = await createTask(server, { name: 'Gone' })
    await deleteTask(server, task.id)
    await expectError(
      await patchRaw(server, task.id, { name: 'x' }),
      404,
      `Task ${task.id} does not exist.`,
    )
  })

  it('answers 400 for an id that is not a positive whole number', async () => {
    await expectError(
      await patchRaw(server, 0, { name: 'x' }),
      400,
      'Path parameter "id" must be at least 1.',
    )
    await expectError(
      await patchRaw(server, 'abc', { name: 'x' }),
      400,
      'Path parameter "id" must be an integer.',
    )
  })
})

describe('DELETE /tasks/{id}', () => {
  it('answers 204 without a body, with the seq of the delete; the task leaves every read at once', async () => {
    const task = await createTask(server, { name: 'Remove me', tag: 'rm' })
    const response = await deleteRaw(server, task.id)
    expect(response.status).toBe(204)
    expect(await response.text()).toBe('')
    const seq = seqOf(response)
    await expectError(
      await get(server, `/tasks/${task.id}`),
      404,
      `Task ${task.id} does not exist.`,
    )
    const listed = await get(server, '/tasks?tag=rm')
    expect(await listed.json()).toEqual([])
    expect(seqOf(listed)).toBeGreaterThanOrEqual(seq)
    const all = (await (await get(server, '/tasks')).json()) as Task[]
    expect(all.map((t) => t.id)).not.toContain(task.id)
  })

  it('answers 404 for an unknown or already deleted task, with or without If-Match', async () => {
    const task = await createTask(server, { name: 'Twice' })
    await deleteTask(server, task.id)
    await expectError(await deleteRaw(server, task.id), 404, `Task ${task.id} does not exist.`)
    await expectError(
      await deleteRaw(server, task.id, { 'if-match': '*' }),
      404,
      `Task ${task.id} does not exist.`,
    )
    await expectError(await deleteRaw(server, 987_655), 404, 'Task 987655 does not exist.')
  })

  it('sets aside whatever content a DELETE carries, of any type', async () => {
    const task = await createTask(server, { name: 'With a body' })
    const response = await fetch(`${server.url}/tasks/${task.id}`, {
      method: 'DELETE',
      headers: { 'content-type': 'application/json' },
      body: '{"anything": true',
    })
    expect(response.status).toBe(204)
    const other = await createTask(server, { name: 'Typed' })
    const typed = await deleteRaw(server, other.id, { 'content-type': 'text/plain' })
    expect(typed.status).toBe(204)
  })

  it("never gives a deleted task's id to another task", async () => {
    const task = await createTask(server, { name: 'Last one' })
    await deleteTask(server, task.id)
    const next = await createTask(server, { name: 'After it' })
    expect(next.id).toBeGreaterThan(task.id)
  })
})

describe('conditional requests', () => {
  it('changes a task only when If-Match names its current ETag; else 412 with the current ETag, and nothing changes', async () => {
    const task = await createTask(server, { name: 'Guarded' })
    const stale = await patchRaw(server, task.id, { name: 'Mine' }, { 'if-match': '"7"' })
    await expectError(
      stale,
      412,
      `Task ${task.id} has changed: its current ETag is "1", which If-Match does not name; nothing was changed.`,
    )
    expect(stale.headers.get('etag')).toBe('"1"')
    expect(await jsonBody(await get(server, `/tasks/${task.id}`))).toEqual(task)
    const ok = await patchRaw(server, task.id, { name: 'Mine' }, { 'if-match': '"5", "1"' })
    expect(ok.status).toBe(200)
    expect(ok.headers.get('etag')).toBe('"2"')
  })

  it('compares strongly: a weak ETag never matches If-Match; * matches any existing task', async () => {
    const task = await createTask(server, { name: 'Strong' })
    const weak = await patchRaw(server, task.id, { name: 'x' }, { 'if-match': 'W/"1"' })
    expect(weak.status).toBe(412)
    expect((await patchRaw(server, task.id, { name: 'x' }, { 'if-match': '*' })).status).toBe(200)
  })

  it('deletes only when If-Match names the current ETag', async () => {
    const task = await createTask(server, { name: 'Guarded delete' })
    await patchTask(server, task.id, { status: 'done' })
    const stale = await deleteRaw(server, task.id, { 'if-match': '"1"' })
    await expectError(
      stale,
      412,
      `Task ${task.id} has changed: its current ETag is "2", which If-Match does not name; nothing was changed.`,
    )
    expect(stale.headers.get('etag')).toBe('"2"')
    expect((await get(server, `/tasks/${task.id}`)).status).toBe(200)
    expect((await deleteRaw(server, task.id, { 'if-match': '"2"' })).status).toBe(204)
  })

  it('answers 304 to If-None-Match with the current ETag (weak comparison, or *), with the ETag and no body', async () => {
    const task = await createTask(server, { name: 'Cached' })
    for (const value of ['"1"', 'W/"1"', '"9", "1"', '*']) {
      const response = await get(server, `/tasks/${task.id}`, {
        headers: { 'if-none-match': value },
      })
      expect(response.status).toBe(304)
      expect(response.headers.get('etag')).toBe('"1"')
      expect(await response.text()).toBe('')
    }
    const changed = await get(server, `/tasks/${task.id}`, { headers: { 'if-none-match': '"2"' } })
    expect(changed.status).toBe(200)
    expect(changed.headers.get('etag')).toBe('"1"')
  })

  it.each([
    ['garbage', 'garbage'],
    ['an unquoted version', '3'],
    ['an unterminated tag', '"3'],
    ['* in a list', '*, "3"'],
    [
      '300 ETags (over 1024 characters)',
      Array.from({ length: 300 }, (_, i) => `"${i}"`).join(', '),
    ],
    ['a 10 kB value', `"${'a'.repeat(10_000)}"`],
  ])(
    'refuses If-Match with %s: 400 naming the header, and changes nothing',
    async (_label, value) => {
      const task = await createTask(server, { name: 'Untouched' })
      const response = await patchRaw(server, task.id, { name: 'x' }, { 'if-match': value })
      expect(response.status).toBe(400)
      expect(((await response.json()) as { message: string }).message).toMatch(
        /^Header "if-match" must /,
      )
      const deleted = await deleteRaw(server, task.id, { 'if-match': value })
      expect(deleted.status).toBe(400)
      expect(await jsonBody(await get(server, `/tasks/${task.id}`))).toEqual(task)
    },
  )

  it('refuses a malformed If-None-Match with 400', async () => {
    const task = await createTask(server, { name: 'Read' })
    const response = await get(server, `/tasks/${task.id}`, {
      headers: { 'if-none-match': 'nope' },
    })
    expect(response.status).toBe(400)
    expect(((await response.json()) as { message: string }).message).toMatch(
      /^Header "if-none-match" must /,
    )
  })
})

describe('precedence of the failures', () => {
  it('answers 400 before 404 and 412, and 404 before 412', async () => {
    const missing = 987_700
    const bad = await patchRaw(server, missing, { name: '' }, { 'if-match': '"1"' })
    expect(bad.status).toBe(400)
    const notFound = await patchRaw(server, missing, { name: 'x' }, { 'if-match': '"1"' })
    expect(notFound.status).toBe(404)
  })

  it('answers an Idempotency-Key replay or clash before 404 and 412', async () => {
    const task = await createTask(server, { name: 'Keyed' })
    const key = `precedence-${task.id}`
    const first = await patchRaw(server, task.id, { status: 'done' }, { 'idempotency-key': key })
    expect(first.status).toBe(200)
    // The task has changed since, and If-Match names an old ETag: the replay still wins.
    await patchTask(server, task.id, { name: 'Changed' })
    const replay = await patchRaw(
      server,
      task.id,
      { status: 'done' },
      { 'idempotency-key': key, 'if-match': '"1"' },
    )
    expect(replay.status).toBe(200)
    const clash = await deleteRaw(server, task.id, { 'idempotency-key': key, 'if-match': '"1"' })
    expect(clash.status).toBe(422)
  })
})

describe('Idempotency-Key on PATCH and DELETE', () => {
  it('replays the original PATCH response (body, ETag, seq) even after the task changed, with Idempotent-Replayed', async () => {
    const task = await createTask(server, { name: 'Replay me' })
    const key = `patch-${task.id}`
    const first = await patchRaw(server, task.id, { status: 'done' }, { 'idempotency-key': key })
    const firstBody = await first.json()
    await patchTask(server, task.id, { name: 'Later' })
    const again = await patchRaw(server, task.id, { status: 'done' }, { 'idempotency-key': key })
    expect(again.status).toBe(200)
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect(await again.json()).toEqual(firstBody)
    expect(again.headers.get('etag')).toBe(first.headers.get('etag'))
    expect(seqOf(again)).toBe(seqOf(first))
    expect((await jsonBody<Task>(await get(server, `/tasks/${task.id}`))).name).toBe('Later')
  })

  it('replays a DELETE as 204 with the original seq, where a new DELETE would be 404', async () => {
    const task = await createTask(server, { name: 'Delete once' })
    const key = `delete-${task.id}`
    const first = await deleteRaw(server, task.id, { 'idempotency-key': key })
    expect(first.status).toBe(204)
    const again = await deleteRaw(server, task.id, { 'idempotency-key': key })
    expect(again.status).toBe(204)
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect(seqOf(again)).toBe(seqOf(first))
  })

  it('answers 422 to a key reused with another method, another task or another body', async () => {
    const [a, b] = [
      await createTask(server, { name: 'a' }),
      await createTask(server, { name: 'b' }),
    ]
    const key = `bound-${a.id}`
    expect((await patchRaw(server, a.id, { name: 'a2' }, { 'idempotency-key': key })).status).toBe(
      200,
    )
    const message =
      'This Idempotency-Key was already used with a different request (another method, task or body).'
    await expectError(
      await patchRaw(server, a.id, { name: 'a3' }, { 'idempotency-key': key }),
      422,
      message,
    )
    await expectError(
      await patchRaw(server, b.id, { name: 'a2' }, { 'idempotency-key': key }),
      422,
      message,
    )
    await expectError(await deleteRaw(server, a.id, { 'idempotency-key': key }), 422, message)
    await expectError(await postJson(server, { name: 'a2' }, key), 422, message)
    expect((await jsonBody<Task>(await get(server, `/tasks/${a.id}`))).name).toBe('a2')
  })

  it('binds a key to the body, not to If-Match', async () => {
    const task = await createTask(server, { name: 'Keyed' })
    const key = `if-match-${task.id}`
    const first = await patchRaw(
      server,
      task.id,
      { name: 'k' },
      { 'idempotency-key': key, 'if-match': '"1"' },
    )
    expect(first.status).toBe(200)
    const again = await patchRaw(
      server,
      task.id,
      { name: 'k' },
      { 'idempotency-key': key, 'if-match': '"99"' },
    )
    expect(again.status).toBe(200)
    expect(again.headers.get('idempotent-replayed')).toBe('true')
  })

  it('stores no key for a refused write: a 404 or 412 can be retried with the same key', async () => {
    const task = await createTask(server, { name: 'Retry' })
    const key = `refused-${task.id}`
    expect(
      (
        await patchRaw(
          server,
          task.id,
          { name: 'r' },
          { 'idempotency-key': key, 'if-match': '"5"' },
        )
      ).status,
    ).toBe(412)
    const retried = await patchRaw(
      server,
      task.id,
      { name: 'r' },
      { 'idempotency-key': key, 'if-match': '"1"' },
    )
    expect(retried.status).toBe(200)
    expect(retried.headers.get('idempotent-replayed')).toBeNull()
  })
})

describe('Tasklane-Seq', () => {
  it('rises by one with each change, and every read answers the newest it reflects', async () => {
    const created = await postJson(server, { name: 'Counting' })
    const task = (await created.json()) as Task
    const s1 = seqOf(created)
    const changed = await patchRaw(server, task.id, { status: 'done' })
    expect(seqOf(changed)).toBe(s1 + 1)
    const read = await get(server, `/tasks/${task.id}`)
    expect(seqOf(read)).toBeGreaterThanOrEqual(s1 + 1)
    const deleted = await deleteRaw(server, task.id)
    expect(seqOf(deleted)).toBe(s1 + 2)
    for (const path of ['/tasks?limit=5', '/tasks?limit=0', '/tasks', '/tasks?limit=5000']) {
      expect(seqOf(await get(server, path))).toBeGreaterThanOrEqual(s1 + 2)
    }
  })
})

describe('GET /tasks?status=', () => {
  it('lists only tasks with that status, with tag, order and paging, and the Link keeps them all', async () => {
    const tag = `status-${Date.now()}`
    const tasks: Task[] = []
    for (let i = 0; i < 5; i++) tasks.push(await createTask(server, { name: `s${i}`, tag }))
    for (const task of tasks.slice(1)) await patchTask(server, task.id, { status: 'done' })
    const open = await get(server, `/tasks?tag=${tag}&status=open`)
    expect(((await open.json()) as Task[]).map((t) => t.id)).toEqual([tasks[0]?.id])
    const page = await get(server, `/tasks?tag=${tag}&status=done&order=desc&limit=2`)
    const done = (await page.json()) as Task[]
    expect(done.map((t) => t.id)).toEqual([tasks[4]?.id, tasks[3]?.id])
    expect(page.headers.get('link')).toBe(
      `</tasks?limit=2&before=${tasks[3]?.id}&order=desc&status=done&tag=${tag}>; rel="next"`,
    )
    await expectError(
      await get(server, '/tasks?status=closed'),
      400,
      'Query parameter "status" must be "open" or "done".',
    )
  })
})
