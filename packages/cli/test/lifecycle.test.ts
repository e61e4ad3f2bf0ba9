import { createClient, type Task, type TasklaneClient } from '@tasklane/client'
import { startServer, type TasklaneServer } from '@tasklane/testing/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pipeTasklane, tasklaneInProcess } from './support/cli.js'

let server: TasklaneServer
/** Reads and sets up tasks beside the CLI under test. */
let client: TasklaneClient
let env: NodeJS.ProcessEnv

beforeAll(async () => {
  server = await startServer()
  client = createClient({ baseUrl: server.url })
  env = { TASKLANE_URL: server.url }
})
afterAll(() => server?.close())

/** `tasklane …args --json`, which must succeed, parsed. */
async function json<T>(...args: string[]): Promise<T> {
  const result = await tasklaneInProcess([...args, '--json'], env)
  expect(result).toMatchObject({ status: 0, stderr: '' })
  return JSON.parse(result.stdout) as T
}

/** New open tasks named `names`. */
function create(...names: string[]): Promise<Task[]> {
  return Promise.all(names.map((name) => client.createTask({ name, tag: 'life' })))
}

/** The message line of a 4xx for `method` on task `id`, as the CLI writes it on stderr. */
function refusal(message: string, status: number, method: string, id: number): RegExp {
  const escaped = message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  return new RegExp(
    `^tasklane: ${escaped} \\(HTTP ${status} from ${method} http://127\\.0\\.0\\.1:\\d+/tasks/${id}; request id \\S+\\)\\n?$`,
  )
}

describe('tasklane done and reopen', () => {
  it('marks one task done and prints it in the table; reopens it', async () => {
    const [task] = (await create('Finish me')) as [Task]
    const done = await tasklaneInProcess(['done', String(task.id)], env)
    expect(done).toEqual({
      status: 0,
      stdout: `ID  STATUS  PRIORITY  DUE  NAME       TAG\n${task.id.toString().padStart(2)}  done                   Finish me  life\n`,
      stderr: '',
    })
    expect(await client.getTask(task.id)).toMatchObject({ status: 'done', version: 2 })
    const reopened = await json<Task[]>('reopen', String(task.id))
    expect(reopened).toEqual([
      { ...task, status: 'open', version: 3, updatedAt: expect.any(String) },
    ])
  })

  it('takes several ids, each in turn, and prints them all as JSON with --json', async () => {
    const tasks = await create('One', 'Two', 'Three')
    const ids = tasks.map(({ id }) => String(id))
    const done = await json<Task[]>('done', ...ids)
    expect(done.map(({ id, status }) => [id, status])).toEqual(tasks.map(({ id }) => [id, 'done']))
    // Done already: each stays as it was, no new version.
    const again = await json<Task[]>('done', ...ids, ids[0] as string)
    expect(again.map(({ version }) => version)).toEqual([2, 2, 2])
    const listed = await client.listTasks(undefined, { status: 'done', tag: 'life' })
    expect(listed.map(({ id }) => id)).toEqual(expect.arrayContaining(tasks.map(({ id }) => id)))
  })

  it("goes on past an unknown id, with the server's message on stderr for it, and exits 1", async () => {
    const [first, last] = (await create('Before', 'After')) as [Task, Task]
    const missing = last.id + 1000
    const result = await tasklaneInProcess(
      ['done', String(first.id), String(missing), String(last.id)],
      env,
    )
    expect(result.status).toBe(1)
    const lines = result.stderr.trimEnd().split('\n')
    expect(lines).toEqual([
      expect.stringMatching(refusal(`Task ${missing} does not exist.`, 404, 'PATCH', missing)),
    ])
    expect(result.stdout).toMatch(
      new RegExp(
        `^ID {2}STATUS.*\n *${first.id} {2}done {19}Before .*\n *${last.id} {2}done {19}After .*\n$`,
      ),
    )
    expect((await client.getTask(last.id)).status).toBe('done')
  })

  it('exits 1 with only the message when the one id given is unknown; --json prints []', async () => {
    const result = await tasklaneInProcess(['reopen', '999999', '--json'], env)
    expect(result.status).toBe(1)
    expect(result.stdout).toBe('[]\n')
    expect(result.stderr).toMatch(refusal('Task 999999 does not exist.', 404, 'PATCH', 999999))
  })

  it('changes nothing and exits 1 with the 412 message when --if-match names an old version', async () => {
    const [task] = (await create('Conditional')) as [Task]
    await client.updateTask(task.id, { name: 'Changed by someone else' })
    const stale = await tasklaneInProcess(['done', String(task.id), '--if-match', '1'], env)
    expect(stale.status).toBe(1)
    expect(stale.stdout).toBe('')
    expect(stale.stderr).toMatch(
      refusal(
        `Task ${task.id} has changed: its current ETag is "2", which If-Match does not name; nothing was changed.`,
        412,
        'PATCH',
        task.id,
      ),
    )
    expect(await client.getTask(task.id)).toMatchObject({ status: 'open', version: 2 })
    const current = await json<Task[]>('done', String(task.id), '--if-match', '2')
    expect(current).toEqual([expect.objectContaining({ status: 'done', version: 3 })])
  })
})

describe('tasklane edit', () => {
  it('renames a task, retags it, removes its tag, and prints it as it is now', async () => {
    const [task] = (await create('Old name')) as [Task]
    const id = String(task.id)
    const renamed = await tasklaneInProcess(['edit', id, '--name', 'New name'], env)
    expect(renamed.status).toBe(0)
    expect(renamed.stdout).toMatch(
      new RegExp(
        `^ID {2}STATUS {2}PRIORITY {2}DUE {2}NAME {6}TAG\n *${id} {2}open {19}New name {2}life\n$`,
      ),
    )
    const retagged = await json<Task>('edit', id, '--tag', 'moved', '--if-match', '2')
    expect(retagged).toMatchObject({ name: 'New name', tag: 'moved', version: 3 })
    const untagged = await json<Task>('edit', id, '--no-tag', '--name', 'Bare')
    expect(untagged).toEqual({
      ...task,
      name: 'Bare',
      version: 4,
      tag: undefined,
      updatedAt: expect.any(String),
    })
    expect(untagged).not.toHaveProperty('tag')
  })

  it("exits 2 for a name the server would refuse, 1 with the server's message for an unknown id and for a stale --if-match", async () => {
    const [task] = (await create('Keep me')) as [Task]
    const blank = await tasklaneInProcess(['edit', String(task.id), '--name', '   '], env)
    expect(blank.status).toBe(2)
    expect(blank.stderr).toContain('The name must have at least one visible character')
    const unknown = await tasklaneInProcess(['edit', '999999', '--name', 'x'], env)
    expect(unknown.status).toBe(1)
    expect(unknown.stderr).toMatch(refusal('Task 999999 does not exist.', 404, 'PATCH', 999999))
    const stale = await tasklaneInProcess(
      ['edit', String(task.id), '--name', 'x', '--if-match', '7'],
      env,
    )
    expect(stale.status).toBe(1)
    expect(stale.stderr).toContain('(HTTP 412 from PATCH')
    expect(await client.getTask(task.id)).toEqual(task)
  })
})

describe('tasklane rm', () => {
  it('deletes each task given and says so, one line each', async () => {
    const tasks = await create('Gone', 'Gone too')
    const ids = tasks.map(({ id }) => String(id))
    const result = await tasklaneInProcess(['rm', ...ids], env)
    expect(result).toEqual({
      status: 0,
      stdout: ids.map((id) => `Deleted task ${id}.\n`).join(''),
      stderr: '',
    })
    const left = await client.listTasks(undefined, { tag: 'life' })
    expect(left.map(({ id }) => id)).not.toContain(tasks[0]?.id)
  })

  it("exits 1 with the server's message for an unknown or deleted id, and deletes the others", async () => {
    const [kept, doomed] = (await create('Stays', 'Goes')) as [Task, Task]
    await client.deleteTask(kept.id)
    const result = await tasklaneInProcess(['rm', String(kept.id), String(doomed.id)], env)
    expect(result.status).toBe(1)
    expect(result.stdout).toBe(`Deleted task ${doomed.id}.\n`)
    expect(result.stderr.trimEnd().split('\n')).toEqual([
      expect.stringMatching(refusal(`Task ${kept.id} does not exist.`, 404, 'DELETE', kept.id)),
    ])
    await expect(client.getTask(doomed.id)).rejects.toMatchObject({ status: 404 })
  })

  it('deletes only while --if-match names the version', async () => {
    const [task] = (await create('Guarded')) as [Task]
    await client.completeTask(task.id)
    const stale = await tasklaneInProcess(['rm', String(task.id), '--if-match', '1'], env)
    expect(stale.status).toBe(1)
    expect(stale.stderr).toContain('(HTTP 412 from DELETE')
    expect(await client.getTask(task.id)).toMatchObject({ version: 2 })
    const current = await tasklaneInProcess(['rm', String(task.id), '--if-match', '2'], env)
    expect(current).toEqual({ status: 0, stdout: `Deleted task ${task.id}.\n`, stderr: '' })
  })
})

describe('tasklane list --status', () => {
  it('lists only the open or only the done tasks, with their status in the table', async () => {
    const [open, done] = (await Promise.all(
      ['Still open', 'Finished'].map((name) => client.createTask({ name, tag: 'filter' })),
    )) as [Task, Task]
    await client.completeTask(done.id)
    const table = await tasklaneInProcess(['list', '--tag', 'filter', '--status', 'done'], env)
    expect(table).toEqual({
      status: 0,
      stdout: `ID  STATUS  PRIORITY  DUE  NAME      TAG\n${done.id}  done                   Finished  filter\n`,
      stderr: '',
    })
    const openOnes = await json<Task[]>('list', '--tag', 'filter', '--status', 'open')
    expect(openOnes).toEqual([open])
    const both = await tasklaneInProcess(['list', '--tag', 'filter'], env)
    expect(both.stdout).toBe(
      `ID  STATUS  PRIORITY  DUE  NAME        TAG\n${open.id}  open                   Still open  filter\n${done.id}  done                   Finished    filter\n`,
    )
  })
})

describe('tasklane export | tasklane import -', () => {
  it('copies tasks with their status as new tasks, and a second run copies nothing twice', async () => {
    const [, done] = (await Promise.all(
      ['Copied open', 'Copied done'].map((name) => client.createTask({ name, tag: 'copy' })),
    )) as [Task, Task]
    await client.completeTask(done.id)
    await client.updateTask(done.id, { name: 'Copied done, renamed' })
    const source = await client.listTasks(undefined, { tag: 'copy' })
    const target = await startServer()
    try {
      const copy = () =>
        pipeTasklane(
          { args: ['export', '--tag', 'copy'], env },
          {
            args: ['import', '-', '--concurrency', '1', '--json'],
            env: { TASKLANE_URL: target.url },
          },
        )
      const first = await copy()
      expect(first.left.status).toBe(0)
      expect(first.right).toMatchObject({ status: 0, stderr: '' })
      expect(JSON.parse(first.right.stdout)).toEqual({
        lines: 2,
        created: 2,
        replayed: 0,
        failed: 0,
      })
      const targetClient = createClient({ baseUrl: target.url })
      const copied = await targetClient.listTasks()
      // New tasks (new ids, versions and times) with the same name, tag and status.
      const essentials = (tasks: Task[]) =>
        tasks.map(({ name, tag, status }) => ({ name, tag, status }))
      expect(essentials(copied)).toEqual(essentials(source))
      expect(copied.map(({ id, version }) => [id, version])).toEqual([
        [1, 1],
        [2, 1],
      ])
      const again = await copy()
      expect(JSON.parse(again.right.stdout)).toEqual({
        lines: 2,
        created: 0,
        replayed: 2,
        failed: 0,
      })
      expect(await targetClient.listTasks()).toEqual(copied)
    } finally {
      await target.close()
    }
  })
})
