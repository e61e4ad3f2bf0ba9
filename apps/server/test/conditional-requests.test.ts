import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTask, deleteRaw, expectError, get, patchRaw, patchTask } from './support/http.js'
import { startServer, type TestServer } from './support/server.js'

// Conditional requests as RFC 9110 (13.1, 13.2.2) has them, beyond If-Match on writes and
// If-None-Match on reads: If-None-Match on PATCH and DELETE, If-Match on GET, and lists of
// entity tags with empty elements.

let server: TestServer

beforeAll(async () => {
  server = await startServer()
})

afterAll(async () => {
  await server?.close()
})

const stale = (id: number, version: number) =>
  `Task ${id} has changed: its current ETag is "${version}", which If-Match does not name; nothing was changed.`

describe('If-None-Match on PATCH and DELETE /tasks/{id}', () => {
  it('answers 412 to "*" for an existing task and changes nothing', async () => {
    const task = await createTask(server, { name: 'guarded by none-match' })
    const patched = await patchRaw(server, task.id, { name: 'x' }, { 'if-none-match': '*' })
    await expectError(patched, 412, stale(task.id, 1))
    expect(patched.headers.get('etag')).toBe('"1"')
    await expectError(
      await deleteRaw(server, task.id, { 'if-none-match': '*' }),
      412,
      stale(task.id, 1),
    )
    expect(await (await get(server, `/tasks/${task.id}`)).json()).toEqual(task)
  })

  it('answers 412 when it names the current version, weakly or not, and changes when it does not', async () => {
    const task = await createTask(server, { name: 'none-match by version' })
    await expectError(
      await patchRaw(server, task.id, { name: 'x' }, { 'if-none-match': 'W/"1"' }),
      412,
      stale(task.id, 1),
    )
    const changed = await patchRaw(server, task.id, { name: 'y' }, { 'if-none-match': '"7", "8"' })
    expect(changed.status).toBe(200)
    expect(await deleteRaw(server, task.id, { 'if-none-match': '"1"' })).toHaveProperty(
      'status',
      204,
    )
  })
})

describe('If-Match on GET /tasks/{id}', () => {
  it('answers 412 with the current ETag when it names another version, and 200 when it names this one', async () => {
    const task = await createTask(server, { name: 'read if it matches' })
    await patchTask(server, task.id, { status: 'done' })
    const refused = await get(server, `/tasks/${task.id}`, { headers: { 'if-match': '"1"' } })
    await expectError(refused, 412, stale(task.id, 2))
    expect(refused.headers.get('etag')).toBe('"2"')
    expect(
      (await get(server, `/tasks/${task.id}`, { headers: { 'if-match': '"2"' } })).status,
    ).toBe(200)
    expect((await get(server, `/tasks/${task.id}`, { headers: { 'if-match': '*' } })).status).toBe(
      200,
    )
  })

  it('answers HEAD as it answers GET: 412 with the current ETag and no body, or 200', async () => {
    const task = await createTask(server, { name: 'head if it matches' })
    await patchTask(server, task.id, { status: 'done' })
    const head = (ifMatch: string) =>
      get(server, `/tasks/${task.id}`, { method: 'HEAD', headers: { 'if-match': ifMatch } })
    const refused = await head('"1"')
    expect(refused.status).toBe(412)
    expect(refused.headers.get('etag')).toBe('"2"')
    expect(await refused.text()).toBe('')
    expect((await head('"2"')).status).toBe(200)
    expect((await head('*')).status).toBe(200)
  })
})

describe('lists of entity tags with empty elements (RFC 9110 5.6.1)', () => {
  it('ignores them in If-Match and If-None-Match', async () => {
    const task = await createTask(server, { name: 'empty elements' })
    const first = await patchRaw(server, task.id, { name: 'a' }, { 'if-match': '"1",,"999"' })
    expect(first.status).toBe(200)
    const second = await patchRaw(server, task.id, { name: 'b' }, { 'if-match': ', "2",' })
    expect(second.status).toBe(200)
    const read = await get(server, `/tasks/${task.id}`, { headers: { 'if-none-match': ',"3"' } })
    expect(read.status).toBe(304)
  })
})
