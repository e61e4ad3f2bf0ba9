// Planning's fields on a task: notes, due (a day or a moment, kept as sent), priority,
// completedAt and position, as POST /task and PATCH /tasks/{id} take and answer them.
import type { Task } from '@tasklane/contract'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createTask,
  expectError,
  get,
  jsonBody,
  patchRaw,
  patchTask,
  postJson,
} from './support/http.js'
import { startServer, type TestServer } from './support/server.js'

let server: TestServer

beforeAll(async () => {
  server = await startServer()
})

afterAll(async () => {
  await server?.close()
})

/** Creates a task with planning's fields, asserting the 201. */
async function planned(fields: Record<string, unknown>): Promise<Task> {
  const response = await postJson(server, { name: 'planned', ...fields })
  expect(response.status).toBe(201)
  return (await response.json()) as Task
}

const DUE_MESSAGE =
  'Field "due" must be a day (YYYY-MM-DD) or a date-time with an offset (2026-12-01T17:00:00+01:00), from 1970 to 9999, kept as sent.'

describe('notes, due and priority', () => {
  it('keeps notes with newlines, a due and a priority exactly as sent, and reads them back', async () => {
    const notes = 'First line\nSecond: **Markdown**, never rendered\n\n— 任务 🚀'
    const task = await planned({ notes, due: '2026-12-01T17:00:00+01:00', priority: 3 })
    expect(task).toMatchObject({ notes, due: '2026-12-01T17:00:00+01:00', priority: 3 })
    expect(await jsonBody(await get(server, `/tasks/${task.id}`))).toEqual(task)
  })

  it.each([
    ['a day', '2026-12-01'],
    ['a moment in UTC', '2026-12-01T17:00:00Z'],
    ['a moment with fractions and an offset', '2026-12-01T17:00:00.250-05:30'],
    ['a leap day', '2028-02-29'],
    ['the first year', '1970-01-01'],
    ['the last year', '9999-12-31'],
  ])('takes %s as a due, unchanged', async (_, due) => {
    expect((await planned({ due })).due).toBe(due)
  })

  it.each([
    ['an impossible date', '2026-02-30'],
    ['a day of a year that is not leap', '2027-02-29'],
    ['a year before 1970', '1969-12-31'],
    ['a date-time without an offset', '2026-12-01T17:00:00'],
    ['a time alone', '17:00'],
    ['a month past 12', '2026-13-01'],
    ['an hour past 23', '2026-12-01T24:00:00Z'],
    ['words', 'tomorrow'],
  ])('refuses %s as a due with 400 naming due, and stores nothing', async (_, due) => {
    const before = await jsonBody<Task[]>(await get(server, '/tasks'))
    await expectError(await postJson(server, { name: 'x', due }), 400, DUE_MESSAGE)
    expect(await jsonBody(await get(server, '/tasks'))).toEqual(before)
  })

  it('refuses a priority outside 0–3 and notes over 10,000 characters, naming the field', async () => {
    await expectError(
      await postJson(server, { name: 'x', priority: 4 }),
      400,
      'Field "priority" must be at most 3.',
    )
    await expectError(
      await postJson(server, { name: 'x', priority: -1 }),
      400,
      'Field "priority" must be at least 0.',
    )
    await expectError(
      await postJson(server, { name: 'x', notes: 'n'.repeat(10_001) }),
      400,
      'Field "notes" must be at most 10000 characters long.',
    )
    // 10,000 code points, not UTF-16 units: 10,000 emoji are 20,000 units.
    expect((await planned({ notes: '🚀'.repeat(10_000) })).notes).toHaveLength(20_000)
  })

  it('answers priority 0 and no notes, due or completedAt keys for a task made without them', async () => {
    const task = await createTask(server, { name: 'bare' })
    expect(task.priority).toBe(0)
    for (const key of ['notes', 'due', 'completedAt']) expect(task).not.toHaveProperty(key)
  })

  it('clears notes and due with null in a PATCH, and sets the priority to 0 with null', async () => {
    const task = await planned({ notes: 'n', due: '2026-12-01', priority: 2 })
    const cleared = await patchTask(server, task.id, { notes: null, due: null, priority: null })
    expect(cleared).toMatchObject({ priority: 0, version: task.version + 1 })
    expect(cleared).not.toHaveProperty('notes')
    expect(cleared).not.toHaveProperty('due')
    const again = await patchTask(server, task.id, { notes: null, due: null, priority: 0 })
    expect(again.version).toBe(cleared.version)
  })
})

describe('fields only the server sets', () => {
  it.each([
    ['completedAt', '2026-01-01T00:00:00.000Z'],
    ['position', 'a0'],
  ])('refuses %s in a NewTask and in a patch with 400 naming it', async (field, value) => {
    const task = await createTask(server, { name: 'server fields' })
    const created = await postJson(server, { name: 'x', [field]: value })
    expect(created.status).toBe(400)
    expect(((await created.json()) as { message: string }).message).toMatch(
      new RegExp(`^Field "${field}" is not allowed; a NewTask has only `),
    )
    const patched = await patchRaw(server, task.id, { [field]: value })
    expect(patched.status).toBe(400)
    expect(((await patched.json()) as { message: string }).message).toMatch(
      new RegExp(`^Field "${field}" is not allowed; a TaskPatch has only `),
    )
    expect(await jsonBody(await get(server, `/tasks/${task.id}`))).toEqual(task)
  })

  it('sets completedAt to the commit time when a task becomes done and removes it when reopened', async () => {
    const task = await createTask(server, { name: 'complete me' })
    const done = await patchTask(server, task.id, { status: 'done' })
    expect(done.completedAt).toBe(done.updatedAt)
    const renamed = await patchTask(server, task.id, { name: 'still done' })
    expect(renamed.completedAt).toBe(done.completedAt)
    const reopened = await patchTask(server, task.id, { status: 'open' })
    expect(reopened).not.toHaveProperty('completedAt')
    const createdDone = await planned({ status: 'done' })
    expect(createdDone.completedAt).toBe(createdDone.createdAt)
  })

  it('places each new task last in its list: positions that sort as bytes in creation order', async () => {
    const made: Task[] = []
    for (let i = 0; i < 5; i++) made.push(await createTask(server, { name: `order ${i}` }))
    const positions = made.map((task) => task.position)
    expect([...positions].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)))).toEqual(
      positions,
    )
    expect(new Set(positions).size).toBe(5)
  })
})
