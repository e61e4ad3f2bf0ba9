// Planning and history from the command line against a real server: notes, due dates and
// priorities on add and edit, move, the listing's sorts and filters (as the CLI asks for
// them: the requests a proxy in front of the server sees), search and history.
import { createClient, type Task, type TasklaneClient } from '@tasklane/client'
import { startServer, type TasklaneServer } from '@tasklane/testing/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { tasklaneInProcess } from './support/cli.js'
import { type FlakyProxy, startFlakyProxy } from './support/flaky-proxy.js'

let server: TasklaneServer
let client: TasklaneClient
/** A proxy in front of the server that records each request. */
let proxy: FlakyProxy
/** TASKLANE_URL of the server under test, through the proxy. */
let env: { TASKLANE_URL: string }

beforeAll(async () => {
  server = await startServer()
  client = createClient({ baseUrl: server.url })
  proxy = await startFlakyProxy(server.url)
  env = { TASKLANE_URL: proxy.url }
})
afterAll(async () => {
  await proxy?.close()
  await server?.close()
})

/** Runs tasklane with --json and parses what it printed, which must be a success. */
async function json<T>(...args: string[]): Promise<T> {
  const result = await tasklaneInProcess([...args, '--json'], env)
  expect(result).toMatchObject({ status: 0, stderr: '' })
  return JSON.parse(result.stdout) as T
}

/** The query string of the last GET /tasks the proxy passed on, by parameter. */
function lastListing(): Record<string, string> {
  const listings = proxy.requests.filter(
    (request) => request.method === 'GET' && request.path.startsWith('/tasks?'),
  )
  const listing = listings.at(-1)
  return Object.fromEntries(new URL(listing?.path ?? '/', 'http://x').searchParams)
}

/** Ids in the manual order: positions compare as bytes (they are ASCII letters and digits). */
const byPosition = (tasks: readonly Task[]) =>
  [...tasks].sort((a, b) => (a.position < b.position ? -1 : 1)).map((task) => task.id)

describe('tasklane add and edit: notes, due and priority', () => {
  it('adds a task with notes, a due date and a priority, and shows them', async () => {
    const added = await json<Task>(
      'add',
      'Release notes',
      '--notes',
      'Check the changelog.\n- link the issue',
      '--due',
      '2026-12-01',
      '--priority',
      'high',
    )
    expect(added).toMatchObject({
      name: 'Release notes',
      notes: 'Check the changelog.\n- link the issue',
      due: '2026-12-01',
      priority: 3,
    })
    const table = await tasklaneInProcess(['get', String(added.id)], env)
    expect(table).toEqual({
      status: 0,
      stdout:
        'ID  STATUS  PRIORITY  DUE         NAME           TAG\n' +
        `${String(added.id).padStart(2)}  open    high      2026-12-01  Release notes\n`,
      stderr: '',
    })
    const numbered = await json<Task>(
      'add',
      'Numbered',
      '-p',
      '2',
      '--due',
      '2026-12-01T17:00:00+01:00',
    )
    expect(numbered).toMatchObject({ priority: 2, due: '2026-12-01T17:00:00+01:00' })
  })

  it('changes them with edit, and removes notes and due with --no-notes and --no-due', async () => {
    const task = await client.createTask({ name: 'Plan', notes: 'first', due: '2026-12-01' })
    const changed = await json<Task>(
      'edit',
      String(task.id),
      '--due',
      '2027-01-15',
      '--priority',
      'low',
    )
    expect(changed).toMatchObject({ due: '2027-01-15', priority: 1, notes: 'first', version: 2 })
    const cleared = await json<Task>(
      'edit',
      String(task.id),
      '--no-notes',
      '--no-due',
      '-p',
      'none',
    )
    expect(cleared).toMatchObject({ priority: 0, version: 3 })
    expect(cleared).not.toHaveProperty('notes')
    expect(cleared).not.toHaveProperty('due')
  })

  it("exits 1 with the server's message naming due for a date that does not exist", async () => {
    const result = await tasklaneInProcess(['add', 'Never', '--due', '2026-02-30'], env)
    expect(result.status).toBe(1)
    expect(result.stdout).toBe('')
    expect(result.stderr).toMatch(/^tasklane: .*due.* \(HTTP 400 from POST /)
  })
})

describe('tasklane move', () => {
  it('moves a task before or after another, to the top or the bottom, and prints it', async () => {
    const list = await client.createList({ name: 'Order' })
    const created: Task[] = []
    for (const name of ['a', 'b', 'c'])
      created.push(await client.createTask({ name, listId: list.id }))
    const ids = created.map((task) => task.id)
    const order = async () => byPosition(await client.listTasks(undefined, { list: list.id }))
    const [first, second, third] = ids as [number, number, number]

    const moved = await tasklaneInProcess(['move', String(third), '--before', String(first)], env)
    expect(moved.status).toBe(0)
    expect(moved.stdout).toMatch(new RegExp(`^ID .*\\n *${third} {2}open .* c\\n$`))
    expect(await order()).toEqual([third, first, second])
    await json<Task>('move', String(third), '--after', String(first))
    expect(await order()).toEqual([first, third, second])
    await json<Task>('move', String(second), '--top')
    expect(await order()).toEqual([second, first, third])
    const bottom = await json<Task>('move', String(second), '--bottom', '--if-match', '2')
    expect(bottom.version).toBe(3)
    expect(await order()).toEqual([first, third, second])
  })

  it('moves a task into another list with --list', async () => {
    const to = await client.createList({ name: 'Elsewhere' })
    const task = await client.createTask({ name: 'going' })
    const moved = await json<Task>('move', String(task.id), '--top', '--list', String(to.id))
    expect(moved.listId).toBe(to.id)
    expect((await client.listTasks(undefined, { list: to.id })).map((t) => t.id)).toEqual([task.id])
  })

  it("exits 1 with the server's message for a stale --if-match or a task of another list", async () => {
    const task = await client.createTask({ name: 'stays' })
    const other = await client.createList({ name: 'Other' })
    const foreign = await client.createTask({ name: 'foreign', listId: other.id })
    const stale = await tasklaneInProcess(
      ['move', String(task.id), '--top', '--if-match', '7'],
      env,
    )
    expect(stale.status).toBe(1)
    expect(stale.stderr).toContain('(HTTP 412 from POST')
    const refused = await tasklaneInProcess(
      ['move', String(task.id), '--after', String(foreign.id)],
      env,
    )
    expect(refused.status).toBe(1)
    expect(refused.stderr).toMatch(/^tasklane: .*after.* \(HTTP 400 from POST /)
    expect(await client.getTask(task.id)).toEqual(task)
  })
})

describe('tasklane list and search: sorts and filters', () => {
  it('asks the server for the sort, order and filters given', async () => {
    const result = await tasklaneInProcess(
      [
        'list',
        '--sort',
        'due',
        '--order',
        'desc',
        '--priority',
        'medium',
        '--due-from',
        '2026-12-01',
        '--due-to',
        '2026-12-31',
        '--tz',
        'Europe/Paris',
        '--overdue',
        '--q',
        'release not',
        '--status',
        'open',
        '--json',
      ],
      env,
    )
    expect(result).toMatchObject({ status: 0, stderr: '' })
    expect(Array.isArray(JSON.parse(result.stdout))).toBe(true)
    expect(lastListing()).toEqual({
      limit: '31',
      order: 'desc',
      sort: 'due',
      status: 'open',
      priority: '2',
      dueFrom: '2026-12-01',
      dueTo: '2026-12-31',
      tz: 'Europe/Paris',
      overdue: 'true',
      q: 'release not',
    })
    await json('list', '--desc', '--sort', 'priority', '--all')
    expect(lastListing()).toEqual({ order: 'desc', sort: 'priority' })
  })

  it('searches with the words given, and takes the options of list', async () => {
    const found = await tasklaneInProcess(
      ['search', 'release', 'not', '--limit', '5', '--json'],
      env,
    )
    expect(found).toMatchObject({ status: 0, stderr: '' })
    expect(lastListing()).toEqual({ limit: '5', q: 'release not' })
    await tasklaneInProcess(['search', 'plan', '--sort', 'updated', '-s', 'done'], env)
    expect(lastListing()).toEqual({ limit: '31', sort: 'updated', status: 'done', q: 'plan' })
  })

  it('points to --after for the next page in id order only', async () => {
    const list = await client.createList({ name: 'Many' })
    for (let index = 0; index < 31; index++) {
      await client.createTask({ name: `many ${index}`, listId: list.id })
    }
    // 31 tasks match `many` (more while the server does not search yet): a page and more.
    const byId = await tasklaneInProcess(['search', 'many'], env)
    const byDue = await tasklaneInProcess(['search', 'many', '--sort', 'due'], env)
    for (const result of [byId, byDue]) expect(result.status).toBe(0)
    expect(byId.stderr).toMatch(
      /^Showing 30 of more tasks: use --limit N or --all to see more, or --after \d+ for the next page\.\n$/,
    )
    expect(byDue.stderr).toBe('Showing 30 of more tasks: use --limit N or --all to see more.\n')
  })
})

describe('tasklane history', () => {
  it("prints a task's changes newest first, also once it is deleted, and as JSON with --json", async () => {
    const task = await client.createTask({ name: 'Tracked' })
    await client.updateTask(task.id, { status: 'done' })
    await client.moveTask(task.id, 'top')
    await client.deleteTask(task.id)
    const table = await tasklaneInProcess(['history', String(task.id)], env)
    expect(table.status).toBe(0)
    const lines = table.stdout.trimEnd().split('\n')
    expect(lines[0]).toMatch(/^ *SEQ {2}AT +ACTOR {2}TYPE +CHANGES$/)
    expect(lines.slice(1).map((line) => line.trim().split(/ {2,}/)[3])).toEqual([
      'deleted',
      'moved',
      'updated',
      'created',
    ])
    expect(lines[3]).toMatch(
      / local {2}updated {2}status: "open" → "done", completedAt: none → "\d{4}-/,
    )
    const entries = await json<{ seq: number; type: string }[]>('history', String(task.id))
    expect(entries.map((entry) => entry.type)).toEqual(['deleted', 'moved', 'updated', 'created'])
    expect(entries).toEqual(await client.taskHistory(task.id))
    const newest = await json<{ seq: number }[]>('history', String(task.id), '--limit', '2')
    expect(newest).toEqual(entries.slice(0, 2))
  })

  it("exits 1 with the server's message for a task that never was", async () => {
    const result = await tasklaneInProcess(['history', '999999'], env)
    expect(result.status).toBe(1)
    expect(result.stderr).toMatch(
      /\(HTTP 404 from GET http:\/\/127\.0\.0\.1:\d+\/tasks\/999999\/history/,
    )
  })
})
