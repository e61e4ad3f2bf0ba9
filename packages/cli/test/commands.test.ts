import { createClient } from '@tasklane/client'
import { freePort } from '@tasklane/testing/launch'
import { startServer, type TasklaneServer } from '@tasklane/testing/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { tasklaneInProcess } from './support/cli.js'

let server: TasklaneServer
/** TASKLANE_URL of the server under test. */
let env: NodeJS.ProcessEnv

beforeAll(async () => {
  server = await startServer()
  env = { TASKLANE_URL: server.url }
})
afterAll(() => server?.close())

describe('tasklane add, get and list', () => {
  it('adds a task and prints it as JSON with --json', async () => {
    const added = await tasklaneInProcess(['add', 'Write docs', '--tag', 'docs', '--json'], env)
    expect(added).toMatchObject({ status: 0, stderr: '' })
    expect(JSON.parse(added.stdout)).toEqual({
      id: 1,
      listId: 1,
      name: 'Write docs',
      tag: 'docs',
      status: 'open',
      priority: 0,
      position: expect.any(String),
      version: 1,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      createdBy: 'local',
      updatedAt: expect.any(String),
      updatedBy: 'local',
    })
  })

  it('prints a table when stdout is not a terminal and --json is not given', async () => {
    const added = await tasklaneInProcess(['add', 'Ship 🚀 任务'], env)
    expect(added.status).toBe(0)
    expect(added.stdout).toBe(
      'ID  STATUS  PRIORITY  DUE  NAME          TAG\n 2  open                   Ship 🚀 任务\n',
    )
  })

  it('gets a task by id, as a table and as JSON', async () => {
    const table = await tasklaneInProcess(['get', '1'], env)
    expect(table).toEqual({
      status: 0,
      stdout:
        'ID  STATUS  PRIORITY  DUE  NAME        TAG\n 1  open                   Write docs  docs\n',
      stderr: '',
    })
    const json = await tasklaneInProcess(['get', '2', '--json'], env)
    expect(JSON.parse(json.stdout)).toMatchObject({ id: 2, name: 'Ship 🚀 任务', status: 'open' })
    expect(JSON.parse(json.stdout)).not.toHaveProperty('tag')
  })

  it('lists every task oldest first, or newest first with --desc, with --limit, --tag, --after and --before', async () => {
    await tasklaneInProcess(['add', 'Review', '--tag', 'docs'], env)
    const all = await tasklaneInProcess(['list', '--json'], env)
    expect(all.status).toBe(0)
    expect(JSON.parse(all.stdout).map((t: { id: number }) => t.id)).toEqual([1, 2, 3])
    const newest = await tasklaneInProcess(['list', '--desc', '--limit', '2', '--json'], env)
    expect(JSON.parse(newest.stdout).map((t: { id: number }) => t.id)).toEqual([3, 2])
    const docs = await tasklaneInProcess(['list', '--tag', 'docs', '--after', '1', '--json'], env)
    expect(JSON.parse(docs.stdout)).toEqual([
      expect.objectContaining({ id: 3, name: 'Review', tag: 'docs' }),
    ])
    const below = await tasklaneInProcess(['list', '--before', '3', '--json'], env)
    expect(JSON.parse(below.stdout).map((t: { id: number }) => t.id)).toEqual([1, 2])
    // Newest first, --before pages back: the page after the newest one.
    const older = await tasklaneInProcess(
      ['list', '--desc', '--before', '3', '--limit', '1', '--json'],
      env,
    )
    expect(JSON.parse(older.stdout).map((t: { id: number }) => t.id)).toEqual([2])
    const none = await tasklaneInProcess(['list', '--limit', '0'], env)
    expect(none.stdout).toBe('No tasks.\n')
    const table = await tasklaneInProcess(['list', '--tag', 'docs'], env)
    expect(table.stdout).toBe(
      'ID  STATUS  PRIORITY  DUE  NAME        TAG\n' +
        ' 1  open                   Write docs  docs\n' +
        ' 3  open                   Review      docs\n',
    )
  })

  it('shows control characters in names escaped in a table, exactly in JSON', async () => {
    const name = 'red \u001b[31malert\nsecond line'
    const added = await tasklaneInProcess(['add', name, '--json'], env)
    const { id } = JSON.parse(added.stdout) as { id: number }
    const table = await tasklaneInProcess(['get', String(id)], env)
    expect(table.stdout).toContain('red \\u001b[31malert\\nsecond line')
    expect(table.stdout).not.toContain('\u001b')
    const json = await tasklaneInProcess(['get', String(id), '--json'], env)
    expect(JSON.parse(json.stdout).name).toBe(name)
  })
})

describe('errors and exit statuses', () => {
  it("exits 1 with the server's message on stderr for a 404", async () => {
    const result = await tasklaneInProcess(['get', '999999'], env)
    expect(result.status).toBe(1)
    expect(result.stdout).toBe('')
    expect(result.stderr).toMatch(
      /^tasklane: Task 999999 does not exist\. \(HTTP 404 from GET http:\/\/127\.0\.0\.1:\d+\/tasks\/999999; request id \S+\)\n$/,
    )
  })

  it('exits 2 for a name or tag the server would refuse, and creates nothing', async () => {
    const before = await server.count()
    const result = await tasklaneInProcess(['add', '   '], env)
    expect(result.status).toBe(2)
    expect(result.stderr).toContain('The name must have at least one visible character')
    const tooLong = await tasklaneInProcess(['add', 'x', '--tag', 't'.repeat(65)], env)
    expect(tooLong.status).toBe(2)
    expect(tooLong.stderr).toContain('The tag is 65 characters long')
    expect(await server.count()).toBe(before)
  })

  it('exits 1 naming the server when nothing listens there', async () => {
    const port = await freePort()
    const result = await tasklaneInProcess(['list', '--url', `http://127.0.0.1:${port}`])
    expect(result.status).toBe(1)
    expect(result.stderr).toBe(
      `tasklane: Could not reach the server: GET http://127.0.0.1:${port}/tasks?limit=31 (connect ECONNREFUSED 127.0.0.1:${port})\n`,
    )
  })
})

describe('the server to use', () => {
  it('is --url over TASKLANE_URL', async () => {
    const result = await tasklaneInProcess(
      ['list', '--url', server.url, '--limit', '1', '--json'],
      {
        TASKLANE_URL: `http://127.0.0.1:${await freePort()}`,
      },
    )
    expect(result.status).toBe(0)
    expect(JSON.parse(result.stdout)).toHaveLength(1)
  })

  it('is http://127.0.0.1:3000 when neither is given', async () => {
    // Whatever answers there, if anything, the error names where the CLI went.
    const result = await tasklaneInProcess(['get', '9007199254740991'])
    expect(result.status).toBe(1)
    expect(result.stderr).toContain('GET http://127.0.0.1:3000/tasks/9007199254740991')
  })
})

describe('TASKLANE_TOKEN', () => {
  let guarded: TasklaneServer
  beforeAll(async () => {
    guarded = await startServer({ apiToken: 'cli-secret-token' })
  })
  afterAll(() => guarded?.close())

  it('is sent as the bearer token; without it the server answers 401, which exits 1', async () => {
    const without = await tasklaneInProcess(['add', 'guarded'], { TASKLANE_URL: guarded.url })
    expect(without.status).toBe(1)
    expect(without.stderr).toContain('(HTTP 401')
    const wrong = await tasklaneInProcess(['list'], {
      TASKLANE_URL: guarded.url,
      TASKLANE_TOKEN: 'nope',
    })
    expect(wrong.status).toBe(1)
    const withToken = { TASKLANE_URL: guarded.url, TASKLANE_TOKEN: 'cli-secret-token' }
    const added = await tasklaneInProcess(['add', 'guarded', '--json'], withToken)
    expect(added.status).toBe(0)
    const listed = await tasklaneInProcess(['list', '--json'], withToken)
    expect(JSON.parse(listed.stdout)).toEqual([JSON.parse(added.stdout)])
  })
})

describe('tasklane export', () => {
  it('prints every task whole as NDJSON, only those of a tag with --tag, and no progress off a terminal', async () => {
    const listed = JSON.parse((await tasklaneInProcess(['list', '--all', '--json'], env)).stdout)
    const all = await tasklaneInProcess(['export'], env)
    expect(all.status).toBe(0)
    expect(all.stderr).toBe('')
    expect(all.stdout.endsWith('\n')).toBe(true)
    expect(
      all.stdout
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toEqual(listed)
    const docs = await tasklaneInProcess(['export', '--tag', 'docs'], env)
    const lines = docs.stdout.split('\n')
    expect(lines.at(-1)).toBe('')
    expect(lines.slice(0, -1).map((line) => JSON.parse(line))).toEqual(
      listed.filter((task: { tag?: string }) => task.tag === 'docs'),
    )
    expect(lines[0]).toMatch(
      /^\{"id":1,"listId":1,"name":"Write docs","tag":"docs","status":"open","priority":0,/,
    )
  })
})

describe('tasklane list, one page at a time', () => {
  /** The ids of the 31 tasks tagged "many", oldest first. */
  let many: number[]
  beforeAll(async () => {
    const client = createClient({ baseUrl: server.url })
    many = []
    for (let i = 1; i <= 31; i++)
      many.push((await client.createTask({ name: `Many ${i}`, tag: 'many' })).id)
  })

  const ids = (stdout: string) => (JSON.parse(stdout) as { id: number }[]).map(({ id }) => id)

  it('prints the first 30 by default, and says on stderr how to see the rest', async () => {
    const table = await tasklaneInProcess(['list', '--tag', 'many'], env)
    expect(table.status).toBe(0)
    expect(table.stdout.trimEnd().split('\n')).toHaveLength(31)
    expect(table.stderr).toBe(
      `Showing 30 of more tasks: use --limit N or --all to see more, or --after ${many[29]} for the next page.\n`,
    )
    // JSON is the same page, so that a script sees what a person sees; the hint goes to stderr.
    const json = await tasklaneInProcess(['list', '--tag', 'many', '--json'], env)
    expect(ids(json.stdout)).toEqual(many.slice(0, 30))
    expect(json.stderr).toBe(table.stderr)
    const newest = await tasklaneInProcess(['list', '--tag', 'many', '--desc', '--json'], env)
    expect(ids(newest.stdout)).toEqual(many.slice(1).reverse())
    expect(newest.stderr).toContain(`or --before ${many[1]} for the next page.`)
  })

  it('prints every one with --all, N with --limit N, and no hint when nothing more exists', async () => {
    const all = await tasklaneInProcess(['list', '--tag', 'many', '--all', '--json'], env)
    expect(all).toMatchObject({ status: 0, stderr: '' })
    expect(ids(all.stdout)).toEqual(many)
    const limited = await tasklaneInProcess(
      ['list', '--tag', 'many', '--limit', '5', '--json'],
      env,
    )
    expect(limited).toMatchObject({ status: 0, stderr: '' })
    expect(ids(limited.stdout)).toEqual(many.slice(0, 5))
    // Exactly 30 left after the first: a full page, and nothing more.
    const rest = await tasklaneInProcess(
      ['list', '--tag', 'many', '--after', String(many[0]), '--json'],
      env,
    )
    expect(rest).toMatchObject({ status: 0, stderr: '' })
    expect(ids(rest.stdout)).toEqual(many.slice(1))
  })

  it('takes -L, -t, -s, -a and -q for --limit, --tag, --status, --all and --q', async () => {
    const short = await tasklaneInProcess(
      ['list', '-t', 'many', '-s', 'open', '-L', '2', '--json'],
      env,
    )
    expect(ids(short.stdout)).toEqual(many.slice(0, 2))
    const all = await tasklaneInProcess(['list', '-t', 'many', '-a', '--json'], env)
    expect(ids(all.stdout)).toEqual(many)
    const added = await tasklaneInProcess(['add', 'Short tag', '-t', 'short', '--json'], env)
    expect(JSON.parse(added.stdout)).toMatchObject({ name: 'Short tag', tag: 'short' })
    // -q for --q, the words to search for.
    const found = await tasklaneInProcess(['list', '-q', 'shor', '--json'], env)
    expect(found).toMatchObject({ status: 0, stderr: '' })
    expect(JSON.parse(found.stdout)).toMatchObject([{ id: JSON.parse(added.stdout).id }])
  })
})
