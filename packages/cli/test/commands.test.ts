import { freePort } from '@tasklane/testing/launch'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTasklane, tasklane, waitFor } from './support/cli.js'
import { type CliTestServer, startServer } from './support/server.js'

let server: CliTestServer
/** TASKLANE_URL of the server under test. */
let env: NodeJS.ProcessEnv

beforeAll(async () => {
  server = await startServer()
  env = { TASKLANE_URL: server.url }
})
afterAll(() => server?.close())

describe('tasklane add, get and list', () => {
  it('adds a task and prints it as JSON with --json', async () => {
    const added = await tasklane(['add', 'Write docs', '--tag', 'docs', '--json'], env)
    expect(added).toMatchObject({ status: 0, stderr: '' })
    expect(JSON.parse(added.stdout)).toEqual({ id: 1, name: 'Write docs', tag: 'docs' })
  })

  it('prints a table when stdout is not a terminal and --json is not given', async () => {
    const added = await tasklane(['add', 'Ship 🚀 任务'], env)
    expect(added.status).toBe(0)
    expect(added.stdout).toBe('ID  NAME          TAG\n 2  Ship 🚀 任务\n')
  })

  it('gets a task by id, as a table and as JSON', async () => {
    const table = await tasklane(['get', '1'], env)
    expect(table).toEqual({
      status: 0,
      stdout: 'ID  NAME        TAG\n 1  Write docs  docs\n',
      stderr: '',
    })
    const json = await tasklane(['get', '2', '--json'], env)
    expect(JSON.parse(json.stdout)).toEqual({ id: 2, name: 'Ship 🚀 任务' })
  })

  it('lists every task oldest first, or newest first with --desc, with --limit, --tag and --after', async () => {
    await tasklane(['add', 'Review', '--tag', 'docs'], env)
    const all = await tasklane(['list', '--json'], env)
    expect(all.status).toBe(0)
    expect(JSON.parse(all.stdout).map((t: { id: number }) => t.id)).toEqual([1, 2, 3])
    const newest = await tasklane(['list', '--desc', '--limit', '2', '--json'], env)
    expect(JSON.parse(newest.stdout).map((t: { id: number }) => t.id)).toEqual([3, 2])
    const docs = await tasklane(['list', '--tag', 'docs', '--after', '1', '--json'], env)
    expect(JSON.parse(docs.stdout)).toEqual([{ id: 3, name: 'Review', tag: 'docs' }])
    const none = await tasklane(['list', '--limit', '0'], env)
    expect(none.stdout).toBe('No tasks.\n')
    const table = await tasklane(['list', '--tag', 'docs'], env)
    expect(table.stdout).toBe('ID  NAME        TAG\n 1  Write docs  docs\n 3  Review      docs\n')
  })

  it('shows control characters in names escaped in a table, exactly in JSON', async () => {
    const name = 'red \u001b[31malert\nsecond line'
    const added = await tasklane(['add', name, '--json'], env)
    const { id } = JSON.parse(added.stdout) as { id: number }
    const table = await tasklane(['get', String(id)], env)
    expect(table.stdout).toContain('red \\u001b[31malert\\nsecond line')
    expect(table.stdout).not.toContain('\u001b')
    const json = await tasklane(['get', String(id), '--json'], env)
    expect(JSON.parse(json.stdout).name).toBe(name)
  })
})

describe('errors and exit statuses', () => {
  it("exits 1 with the server's message on stderr for a 404", async () => {
    const result = await tasklane(['get', '999999'], env)
    expect(result.status).toBe(1)
    expect(result.stdout).toBe('')
    expect(result.stderr).toMatch(
      /^tasklane: Task 999999 does not exist\. \(HTTP 404 from GET http:\/\/127\.0\.0\.1:\d+\/tasks\/999999; request id \S+\)\n$/,
    )
  })

  it("exits 1 with the server's message on stderr for a 400, and creates nothing", async () => {
    const before = await server.count()
    const result = await tasklane(['add', '   '], env)
    expect(result.status).toBe(1)
    expect(result.stderr).toContain('"name"')
    expect(result.stderr).toContain('(HTTP 400 from POST')
    const tooLong = await tasklane(['add', 'x', '--tag', 't'.repeat(65)], env)
    expect(tooLong.status).toBe(1)
    expect(tooLong.stderr).toContain('"tag"')
    expect(await server.count()).toBe(before)
  })

  it('exits 1 naming the server when nothing listens there', async () => {
    const port = await freePort()
    const result = await tasklane(['list', '--url', `http://127.0.0.1:${port}`])
    expect(result.status).toBe(1)
    expect(result.stderr).toBe(
      `tasklane: Could not reach the server: GET http://127.0.0.1:${port}/tasks (connect ECONNREFUSED 127.0.0.1:${port})\n`,
    )
  })

  it.each([
    [['lst'], "tasklane: Unknown command 'lst'. See 'tasklane --help'.\n"],
    [[], "tasklane: Missing command. See 'tasklane --help'.\n"],
    [['list', '--limt', '3'], "tasklane: Unknown option '--limt'. See 'tasklane list --help'.\n"],
    [['get', '--desc', '1'], "tasklane: get has no option '--desc'. See 'tasklane get --help'.\n"],
    [['add'], "tasklane: Missing <name>. See 'tasklane add --help'.\n"],
    [
      ['add', 'two', 'words'],
      "tasklane: Unexpected argument 'words' (quote a name that has spaces). See 'tasklane add --help'.\n",
    ],
    [
      ['get', 'abc'],
      "tasklane: <id> must be a whole number from 1 to 9007199254740991, got 'abc'. See 'tasklane get --help'.\n",
    ],
    [
      ['list', '--limit', '-1'],
      "tasklane: Option '--limit' argument is ambiguous. See 'tasklane list --help'.\n",
    ],
    [
      ['list', '--limit', '2147483648'],
      "tasklane: --limit must be a whole number from 0 to 2147483647, got '2147483648'. See 'tasklane list --help'.\n",
    ],
    [
      ['list', '--tag', 'a', '--tag', 'b'],
      "tasklane: '--tag' is given twice. See 'tasklane list --help'.\n",
    ],
    [
      ['list', '--url', 'ftp://example.com'],
      "tasklane: --url must be an http:// or https:// URL, got 'ftp://example.com'. See 'tasklane list --help'.\n",
    ],
    [
      ['import', '/nonexistent/tasks.ndjson', '--concurrency', '0'],
      "tasklane: --concurrency must be a whole number from 1 to 256, got '0'. See 'tasklane import --help'.\n",
    ],
    [['import', '/'], "tasklane: Cannot read /: not a file. See 'tasklane import --help'.\n"],
    [
      ['import', '/nonexistent/tasks.ndjson'],
      "tasklane: Cannot read /nonexistent/tasks.ndjson: ENOENT. See 'tasklane import --help'.\n",
    ],
  ])('exits 2 with one line and a hint to --help for tasklane %j', async (args, stderr) => {
    const result = await tasklane(args, env)
    expect(result).toEqual({ status: 2, stdout: '', stderr })
  })

  it('exits 2 when TASKLANE_URL is not a URL', async () => {
    const result = await tasklane(['list'], { TASKLANE_URL: 'not a url' })
    expect(result.status).toBe(2)
    expect(result.stderr).toBe(
      "tasklane: TASKLANE_URL must be an http:// or https:// URL, got 'not a url'. See 'tasklane list --help'.\n",
    )
  })
})

describe('help and version', () => {
  it('prints the version of the package with --version', async () => {
    const { version } = (await import('../package.json', { with: { type: 'json' } })).default
    expect(await tasklane(['--version'])).toEqual({ status: 0, stdout: `${version}\n`, stderr: '' })
  })

  it('lists every command, TASKLANE_URL, TASKLANE_TOKEN and the exit statuses with --help', async () => {
    const result = await tasklane(['--help'])
    expect(result.status).toBe(0)
    expect(result.stdout).toMatch(/^Usage: tasklane <command> \[options\]/)
    for (const word of ['add', 'list', 'get', 'watch', 'export', 'import']) {
      expect(result.stdout).toMatch(new RegExp(`^  ${word} `, 'm'))
    }
    for (const word of ['TASKLANE_URL', 'TASKLANE_TOKEN', 'Exit status']) {
      expect(result.stdout).toContain(word)
    }
  })

  it.each([
    ['add', 'Usage: tasklane add <name> [--tag T] [--json] [--url URL]'],
    [
      'list',
      'Usage: tasklane list [--limit N] [--tag T] [--after ID] [--desc] [--json] [--url URL]',
    ],
    ['get', 'Usage: tasklane get <id> [--json] [--url URL]'],
    ['watch', 'Usage: tasklane watch [--tag T] [--after ID] [--json] [--url URL]'],
    ['export', 'Usage: tasklane export [--tag T] [--url URL]'],
    ['import', 'Usage: tasklane import <file.ndjson> [--concurrency N] [--json] [--url URL]'],
  ])('prints the usage of %s with --help and with help <command>', async (command, usage) => {
    const flag = await tasklane([command, '--help'])
    expect(flag.status).toBe(0)
    expect(flag.stdout.split('\n')[0]).toBe(usage)
    expect(await tasklane(['help', command])).toEqual(flag)
  })
})

describe('the server to use', () => {
  it('is --url over TASKLANE_URL', async () => {
    const result = await tasklane(['list', '--url', server.url, '--limit', '1', '--json'], {
      TASKLANE_URL: `http://127.0.0.1:${await freePort()}`,
    })
    expect(result.status).toBe(0)
    expect(JSON.parse(result.stdout)).toHaveLength(1)
  })

  it('is http://127.0.0.1:3000 when neither is given', async () => {
    // Whatever answers there, if anything, the error names where the CLI went.
    const result = await tasklane(['get', '9007199254740991'])
    expect(result.status).toBe(1)
    expect(result.stderr).toContain('GET http://127.0.0.1:3000/tasks/9007199254740991')
  })
})

describe('TASKLANE_TOKEN', () => {
  let guarded: CliTestServer
  beforeAll(async () => {
    guarded = await startServer({ API_TOKEN: 'cli-secret-token' })
  })
  afterAll(() => guarded?.close())

  it('is sent as the bearer token; without it the server answers 401, which exits 1', async () => {
    const without = await tasklane(['add', 'guarded'], { TASKLANE_URL: guarded.url })
    expect(without.status).toBe(1)
    expect(without.stderr).toContain('(HTTP 401')
    const wrong = await tasklane(['list'], { TASKLANE_URL: guarded.url, TASKLANE_TOKEN: 'nope' })
    expect(wrong.status).toBe(1)
    const withToken = { TASKLANE_URL: guarded.url, TASKLANE_TOKEN: 'cli-secret-token' }
    const added = await tasklane(['add', 'guarded', '--json'], withToken)
    expect(added.status).toBe(0)
    const listed = await tasklane(['list', '--json'], withToken)
    expect(JSON.parse(listed.stdout)).toEqual([JSON.parse(added.stdout)])
  })
})

describe('tasklane export', () => {
  it('prints every task as NDJSON, only those of a tag with --tag, and no progress off a terminal', async () => {
    const listed = JSON.parse((await tasklane(['list', '--json'], env)).stdout)
    const all = await tasklane(['export'], env)
    expect(all.status).toBe(0)
    expect(all.stderr).toBe('')
    expect(all.stdout.endsWith('\n')).toBe(true)
    expect(
      all.stdout
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toEqual(listed)
    const docs = await tasklane(['export', '--tag', 'docs'], env)
    expect(docs.stdout).toBe(
      '{"id":1,"name":"Write docs","tag":"docs"}\n{"id":3,"name":"Review","tag":"docs"}\n',
    )
  })
})

describe('tasklane watch', () => {
  it('prints a task created by another command, as NDJSON with --json, and ends with 0 on SIGTERM', async () => {
    const watcher = startTasklane(['watch', '--json'], env)
    // Connected once it has asked for the newest task and opened the feed; a task created
    // before that would not be new to it, so keep adding until one arrives.
    let added: { id: number } | undefined
    await waitFor('the watcher printing a task', async () => {
      if (watcher.stdout() !== '') return true
      added = JSON.parse(
        (await tasklane(['add', 'watched', '--tag', 'live', '--json'], env)).stdout,
      )
      await new Promise((resolve) => setTimeout(resolve, 200))
      return watcher.stdout() !== ''
    })
    const first = JSON.parse(watcher.stdout().split('\n')[0] ?? '')
    expect(first).toMatchObject({ name: 'watched', tag: 'live' })
    expect(first.id).toBeLessThanOrEqual(added?.id ?? 0)
    watcher.child.kill('SIGTERM')
    expect(await watcher.exited).toEqual({ status: 0, signal: null })
    expect(watcher.stderr()).toBe('')
  })

  it('prints the backlog after --after, one line per task, only those of --tag, and ends with 0 on SIGINT', async () => {
    const watcher = startTasklane(['watch', '--after', '0', '--tag', 'docs'], env)
    await waitFor('the backlog', () => watcher.stdout().split('\n').length > 2)
    watcher.child.kill('SIGINT')
    expect(await watcher.exited).toEqual({ status: 0, signal: null })
    expect(watcher.stdout()).toBe('1  Write docs  [docs]\n3  Review  [docs]\n')
  })
})
