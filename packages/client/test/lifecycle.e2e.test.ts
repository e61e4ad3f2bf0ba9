import { startServer } from '@tasklane/testing/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  ApiError,
  ConnectionError,
  createClient,
  PreconditionFailedError,
  type Task,
} from '../src/index.js'
import { lossyProxy } from './proxies.js'

let server: Awaited<ReturnType<typeof startServer>>
let client: ReturnType<typeof createClient>

beforeAll(async () => {
  server = await startServer()
  client = createClient({ baseUrl: server.url })
})
afterAll(() => server.close())

/** Retries without long waits. */
const quickRetry = { initialDelayMs: 10, maxDelayMs: 20 }

/** The 412's message for a task whose current ETag is `"<version>"`. */
const changed = (id: number, version: number) =>
  `Task ${id} has changed: its current ETag is "${version}", which If-Match does not name; nothing was changed.`

describe('createTask and listTasks with a status', () => {
  it('creates a task done, and lists by status', async () => {
    const tag = `status-${Date.now()}`
    const open = await client.createTask({ name: 'open one', tag })
    const done = await client.createTask({ name: 'done one', tag, status: 'done' })
    expect(open).toMatchObject({ status: 'open', version: 1 })
    expect(done).toMatchObject({ status: 'done', version: 1 })
    expect(await client.listTasks(undefined, { tag, status: 'done' })).toEqual([done])
    expect(await client.listTasks(undefined, { tag, status: 'open' })).toEqual([open])
    const walked: Task[] = []
    for await (const task of client.tasks({ tag, status: 'open', pageSize: 1 })) walked.push(task)
    expect(walked).toEqual([open])
    const exported: Task[] = []
    for await (const task of client.exportTasks({ tag, status: 'done' })) exported.push(task)
    expect(exported).toEqual([done])
  })
})

describe('getTask', () => {
  it('resolves to undefined when the task still has the version of ifNoneMatch (304), else to the task', async () => {
    const task = await client.createTask({ name: 'cached' })
    expect(await client.getTask(task.id, { ifNoneMatch: 1 })).toBeUndefined()
    expect(await client.getTask(task.id, { ifNoneMatch: '"1"' })).toBeUndefined()
    expect(await client.getTask(task.id, { ifNoneMatch: '*' })).toBeUndefined()
    const renamed = await client.updateTask(task.id, { name: 'cached, renamed' })
    expect(await client.getTask(task.id, { ifNoneMatch: 1 })).toEqual(renamed)
    expect(await client.getTask(task.id)).toEqual(renamed)
  })
})

describe('updateTask, completeTask, reopenTask', () => {
  it('renames, retags and removes the tag, one version more each time', async () => {
    const task = await client.createTask({ name: 'typo', tag: 'a' })
    const renamed = await client.updateTask(task.id, { name: 'fixed' })
    expect(renamed).toEqual({
      ...task,
      name: 'fixed',
      version: 2,
      updatedAt: expect.any(String),
    })
    expect(await client.updateTask(task.id, { tag: 'b' })).toMatchObject({ tag: 'b', version: 3 })
    const untagged = await client.updateTask(task.id, { tag: null }, { ifMatch: 3 })
    expect(untagged).not.toHaveProperty('tag')
    expect(untagged.version).toBe(4)
    expect(await client.getTask(task.id)).toEqual(untagged)
  })

  it('marks a task done and open again', async () => {
    const task = await client.createTask({ name: 'tick' })
    expect(await client.completeTask(task.id, { ifMatch: 1 })).toMatchObject({
      status: 'done',
      version: 2,
    })
    expect(await client.reopenTask(task.id)).toMatchObject({ status: 'open', version: 3 })
  })

  it("rejects a stale ifMatch with a PreconditionFailedError carrying the task's current ETag and version, changing nothing", async () => {
    const task = await client.createTask({ name: 'contested' })
    const now = await client.completeTask(task.id)
    const error = await client.updateTask(task.id, { name: 'mine' }, { ifMatch: 1 }).catch((e) => e)
    expect(error).toBeInstanceOf(PreconditionFailedError)
    expect(error).toBeInstanceOf(ApiError)
    expect(error).toMatchObject({
      name: 'PreconditionFailedError',
      status: 412,
      code: 412,
      message: changed(task.id, 2),
      etag: '"2"',
      version: 2,
      method: 'PATCH',
    })
    await expect(client.reopenTask(task.id, { ifMatch: '"1"' })).rejects.toBeInstanceOf(
      PreconditionFailedError,
    )
    expect(await client.getTask(task.id)).toEqual(now)
    // A list of ETags: any one of them matches.
    expect(
      await client.updateTask(task.id, { name: 'mine' }, { ifMatch: '"7", "2"' }),
    ).toMatchObject({ name: 'mine', version: 3 })
  })

  it('answers 404 for a task that does not exist', async () => {
    await expect(client.updateTask(987_654, { name: 'x' })).rejects.toMatchObject({
      status: 404,
      message: 'Task 987654 does not exist.',
    })
  })
})

describe('deleteTask', () => {
  it('deletes (204, resolving to undefined): the task leaves reads and listings; a second delete is 404', async () => {
    const tag = `delete-${Date.now()}`
    const task = await client.createTask({ name: 'remove me', tag })
    expect(await client.deleteTask(task.id)).toBeUndefined()
    await expect(client.getTask(task.id)).rejects.toMatchObject({ status: 404 })
    expect(await client.listTasks(undefined, { tag })).toEqual([])
    await expect(client.deleteTask(task.id)).rejects.toMatchObject({
      status: 404,
      message: `Task ${task.id} does not exist.`,
    })
  })

  it('deletes only when ifMatch names the current version', async () => {
    const task = await client.createTask({ name: 'guarded' })
    await client.completeTask(task.id)
    await expect(client.deleteTask(task.id, { ifMatch: 1 })).rejects.toMatchObject({
      status: 412,
      etag: '"2"',
      version: 2,
      message: changed(task.id, 2),
    })
    expect(await client.getTask(task.id)).toMatchObject({ version: 2 })
    await client.deleteTask(task.id, { ifMatch: 2 })
    await expect(client.getTask(task.id)).rejects.toMatchObject({ status: 404 })
  })
})

describe('retried changes are replays', () => {
  it('retries a PATCH with ifMatch whose response was lost: the retry replays the change rather than failing 412', async () => {
    const task = await client.createTask({ name: 'lost answer' })
    const proxy = await lossyProxy(server.url, 1)
    try {
      const flaky = createClient({ baseUrl: proxy.url, retry: quickRetry })
      const done = await flaky.completeTask(task.id, { ifMatch: task.version })
      expect(done).toMatchObject({ status: 'done', version: 2 })
      expect(proxy.keys).toHaveLength(2)
      expect(proxy.keys[0]).toMatch(/^[0-9a-f-]{36}$/)
      expect(proxy.keys[1]).toBe(proxy.keys[0])
      // Changed once, not twice.
      expect(await client.getTask(task.id)).toEqual(done)
    } finally {
      proxy.close()
    }
  })

  it('retries a DELETE whose response was lost: the retry replays the 204 rather than answering 404', async () => {
    const task = await client.createTask({ name: 'lost delete' })
    const proxy = await lossyProxy(server.url, 1)
    try {
      const flaky = createClient({ baseUrl: proxy.url, retry: quickRetry })
      expect(await flaky.deleteTask(task.id, { ifMatch: 1 })).toBeUndefined()
      expect(proxy.keys).toHaveLength(2)
      expect(proxy.keys[1]).toBe(proxy.keys[0])
    } finally {
      proxy.close()
    }
  })

  it('sends no key and never retries a change with retries off: a lost response is a ConnectionError', async () => {
    const task = await client.createTask({ name: 'no retry' })
    const proxy = await lossyProxy(server.url, 1)
    try {
      const once = createClient({ baseUrl: proxy.url, retry: false })
      await expect(once.completeTask(task.id)).rejects.toBeInstanceOf(ConnectionError)
      expect(proxy.keys).toEqual([undefined])
    } finally {
      proxy.close()
    }
  })

  it("replays a change sent again with the caller's own key, even after the task changed since", async () => {
    const task = await client.createTask({ name: 'keyed' })
    const key = `client-patch-${task.id}`
    const first = await client.completeTask(task.id, { idempotencyKey: key })
    await client.updateTask(task.id, { name: 'changed since' })
    expect(await client.completeTask(task.id, { idempotencyKey: key, ifMatch: 1 })).toEqual(first)
    await expect(
      client.updateTask(task.id, { name: 'another body' }, { idempotencyKey: key }),
    ).rejects.toMatchObject({ status: 422 })
    const deleteKey = `client-delete-${task.id}`
    await client.deleteTask(task.id, { idempotencyKey: deleteKey })
    expect(await client.deleteTask(task.id, { idempotencyKey: deleteKey })).toBeUndefined()
  })
})
