// `tasklane login`, `logout`, `lists`, `members`, `tokens` and `--list` on the task
// commands, run as the built binary against a real server that asks for credentials, with
// HOME and XDG_CONFIG_HOME in a directory of the test's.
import { randomBytes } from 'node:crypto'
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { CreatedToken, List, Member, Task, Token } from '@tasklane/client'
import { startServer, type TasklaneServer } from '@tasklane/testing/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Result, startTasklane, tasklane, waitFor } from './support/cli.js'

const API_TOKEN = `admin-${randomBytes(16).toString('hex')}`

let server: TasklaneServer
let home: string
/** The admin's environment: TASKLANE_URL and TASKLANE_TOKEN, HOME of its own. */
let admin: NodeJS.ProcessEnv

beforeAll(async () => {
  server = await startServer({ apiToken: API_TOKEN })
  home = mkdtempSync(join(tmpdir(), 'tasklane-access-'))
  admin = { TASKLANE_URL: server.url, TASKLANE_TOKEN: API_TOKEN, HOME: join(home, 'admin') }
})
afterAll(async () => {
  await server?.close()
  if (home !== undefined) rmSync(home, { recursive: true, force: true })
})

/** A new HOME, without a stored token: the environment of a user who has none. */
function newUser(name: string, xdg?: string): NodeJS.ProcessEnv {
  const dir = join(home, name)
  return { TASKLANE_URL: server.url, HOME: dir, ...(xdg ? { XDG_CONFIG_HOME: xdg } : {}) }
}

/** Runs `tasklane login` with `input` piped into its standard input. */
async function login(input: string, env: NodeJS.ProcessEnv): Promise<Result> {
  const running = startTasklane(['login'], env, 'pipe')
  running.child.stdin?.end(input)
  const { status } = await running.exited
  return { status, stdout: running.stdout(), stderr: running.stderr() }
}

/** Runs tasklane with --json as `env` says, and parses what it printed, which must succeed. */
async function json<T>(env: NodeJS.ProcessEnv, ...args: string[]): Promise<T> {
  const result = await tasklane([...args, '--json'], env)
  expect(result).toMatchObject({ status: 0, stderr: '' })
  return JSON.parse(result.stdout) as T
}

/** A name no other test uses. */
const unique = (name: string) => `${name} ${randomBytes(3).toString('hex')}`

describe('tasklane login', () => {
  it('refuses a token the server refuses, storing nothing', async () => {
    const env = newUser('refused')
    const result = await login('tl_not-a-token\n', env)
    expect(result.status).toBe(1)
    expect(result.stderr).toMatch(
      /^tasklane: The server refused this token; nothing was stored\. .*\(HTTP 401 from GET http:\/\/127\.0\.0\.1:\d+\/me;/,
    )
    expect(existsSync(join(env.HOME as string, '.config'))).toBe(false)
  })

  it('stores a good token with mode 0600 in a directory of mode 0700, which later commands send; logout removes it', async () => {
    const env = newUser('stored')
    const result = await login(`${API_TOKEN}\n`, env)
    const dir = join(env.HOME as string, '.config', 'tasklane')
    const file = join(dir, 'credentials.json')
    expect(result).toEqual({
      status: 0,
      stdout: `Logged in to ${server.url} as admin (admin). The token is stored in ${file}.\n`,
      stderr: '',
    })
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(statSync(dir).mode & 0o777).toBe(0o700)

    // No TASKLANE_TOKEN: the stored one is sent.
    const lists = await json<List[]>(env, 'lists')
    expect(lists.map(({ id }) => id)).toContain(1)

    expect(await tasklane(['logout'], env)).toEqual({
      status: 0,
      stdout: `Removed the token stored for ${server.url}.\n`,
      stderr: '',
    })
    expect(existsSync(file)).toBe(false)
    const after = await tasklane(['lists'], env)
    expect(after.status).toBe(1)
    expect(after.stderr).toContain('(HTTP 401 from GET')
    expect(after.stderr).toContain(
      "The server asks for a token: run 'tasklane login', or set TASKLANE_TOKEN.",
    )
  })

  it('stores under $XDG_CONFIG_HOME/tasklane when it is set, one token a server', async () => {
    const xdg = join(home, 'xdg-config')
    const env = newUser('xdg', xdg)
    expect((await login(`${API_TOKEN}\n`, env)).status).toBe(0)
    const file = join(xdg, 'tasklane', 'credentials.json')
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ tokens: { [server.url]: API_TOKEN } })
    expect(existsSync(join(env.HOME as string, '.config'))).toBe(false)
    // The same server, written with a trailing slash: the same token.
    expect((await tasklane(['lists'], { ...env, TASKLANE_URL: `${server.url}/` })).status).toBe(0)
  })

  it('lets TASKLANE_TOKEN win over the stored token', async () => {
    const env = newUser('both')
    expect((await login(`${API_TOKEN}\n`, env)).status).toBe(0)
    const refused = await tasklane(['lists'], { ...env, TASKLANE_TOKEN: 'tl_wrong' })
    expect(refused.status).toBe(1)
    expect(refused.stderr).toContain('(HTTP 401 from GET')
    expect(refused.stderr).toContain(
      'The token of TASKLANE_TOKEN was refused: set it to a valid one.',
    )
    // A viewer's token in TASKLANE_TOKEN: the list it sees, not the admin's every list.
    const list = await json<List>(admin, 'lists', 'create', unique('Env wins'))
    await json<Member>(admin, 'members', 'add', String(list.id), 'env-viewer', '--role', 'viewer')
    const made = await json<CreatedToken>(
      admin,
      'tokens',
      'create',
      '--name',
      'env',
      '--principal',
      'env-viewer',
    )
    const seen = await json<List[]>({ ...env, TASKLANE_TOKEN: made.token }, 'lists')
    expect(seen.map(({ id }) => id)).toEqual([list.id])
  })

  it('refuses an empty line as a usage error, storing nothing', async () => {
    const env = newUser('empty')
    const result = await login('\n', env)
    expect(result.status).toBe(2)
    expect(result.stderr).toContain('No token was given')
    expect(existsSync(join(env.HOME as string, '.config'))).toBe(false)
  })
})

describe('tasklane lists', () => {
  it('creates, lists, renames and deletes lists, by id or by name', async () => {
    const name = unique('Groceries')
    const created = await json<List>(admin, 'lists', 'create', name)
    expect(created).toMatchObject({ name, version: 1 })
    expect(await json<List[]>(admin, 'lists')).toContainEqual(created)
    const table = await tasklane(['lists'], admin)
    expect(table.stdout).toMatch(/^ID +NAME$/m)
    expect(table.stdout).toMatch(new RegExp(`^ *${created.id}  ${name}$`, 'm'))

    const renamed = await json<List>(admin, 'lists', 'rename', name, `${name} and more`)
    expect(renamed).toMatchObject({ id: created.id, name: `${name} and more`, version: 2 })
    const stale = await tasklane(
      ['lists', 'rename', String(created.id), 'x', '--if-match', '1'],
      admin,
    )
    expect(stale.status).toBe(1)
    expect(stale.stderr).toContain('(HTTP 412 from PATCH')

    expect(await tasklane(['lists', 'rm', `${name} and more`], admin)).toEqual({
      status: 0,
      stdout: `Deleted list ${created.id}.\n`,
      stderr: '',
    })
    expect((await json<List[]>(admin, 'lists')).map(({ id }) => id)).not.toContain(created.id)
    const gone = await tasklane(['lists', 'rm', `${name} and more`], admin)
    expect(gone.status).toBe(2)
    expect(gone.stderr).toBe(
      `tasklane: No list is named '${name} and more'. See 'tasklane lists rm --help'.\n`,
    )
  })
})

describe('--list on the task commands', () => {
  it('adds a task to a list by name; list, search and export show only that list', async () => {
    const name = unique('Errands')
    const list = await json<List>(admin, 'lists', 'create', name)
    const inList = await json<Task>(admin, 'add', 'Buy stamps', '--list', name)
    expect(inList.listId).toBe(list.id)
    const elsewhere = await json<Task>(admin, 'add', 'Buy stamps elsewhere')
    expect(elsewhere.listId).not.toBe(list.id)

    expect(await json<Task[]>(admin, 'list', '--list', name)).toEqual([inList])
    expect(await json<Task[]>(admin, 'list', '--list', String(list.id))).toEqual([inList])
    expect(await json<Task[]>(admin, 'search', 'stamps', '--list', name)).toEqual([inList])
    const exported = await tasklane(['export', '--list', name], admin)
    expect(exported.stdout).toBe(`${JSON.stringify(inList)}\n`)
  })

  it('watches the changes of one list only with watch --list', async () => {
    const name = unique('Watched')
    await json<List>(admin, 'lists', 'create', name)
    const watching = startTasklane(['watch', '--list', name, '--json'], admin)
    try {
      // The feed is open once a change made after the start reaches it: add until one does.
      await waitFor('the feed to open', async () => {
        await json<Task>(admin, 'add', 'Elsewhere')
        await json<Task>(admin, 'add', 'Probe', '--list', name)
        return watching.stdout().includes('"Probe"')
      })
      await json<Task>(admin, 'add', 'Elsewhere, last')
      const last = await json<Task>(admin, 'add', 'Watched, last', '--list', name)
      await waitFor('the last task', () => watching.stdout().includes('"Watched, last"'))
      const events = watching
        .stdout()
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as { task: Task })
      expect(events.every(({ task }) => task.listId === last.listId)).toBe(true)
      expect(watching.stdout()).not.toContain('Elsewhere')
    } finally {
      watching.child.kill('SIGINT')
      expect((await watching.exited).status).toBe(0)
    }
  })
})

describe('tasklane members', () => {
  it('adds a viewer, whose token reads the list but may not change it; removes it', async () => {
    const name = unique('Shared')
    const list = await json<List>(admin, 'lists', 'create', name)
    const task = await json<Task>(admin, 'add', 'Read me', '--list', name)

    const added = await tasklane(['members', 'add', name, 'viewer-vic', '--role', 'viewer'], admin)
    expect(added).toEqual({
      status: 0,
      stdout: `PRINCIPAL   ROLE\nviewer-vic  viewer\nAdded viewer-vic to list ${list.id} as viewer.\n`,
      stderr: '',
    })
    expect(await json<Member[]>(admin, 'members', name)).toEqual([
      { principal: 'admin', role: 'owner' },
      { principal: 'viewer-vic', role: 'viewer' },
    ])
    expect(await json<Member[]>(admin, 'members', 'ls', String(list.id))).toHaveLength(2)

    const made = await json<CreatedToken>(
      admin,
      'tokens',
      'create',
      '--name',
      'vic',
      '--principal',
      'viewer-vic',
    )
    const vic = { ...newUser('vic'), TASKLANE_TOKEN: made.token }
    expect(await json<Task[]>(vic, 'list', '--list', name)).toEqual([task])
    const write = await tasklane(['add', 'Not allowed', '--list', name], vic)
    expect(write.status).toBe(1)
    expect(write.stderr).toMatch(
      /^tasklane: .*\(HTTP 403 from POST http:\/\/127\.0\.0\.1:\d+\/task;/,
    )
    expect(write.stderr).toMatch(/editor/)
    // No --list, and no list vic can edit: the server's refusal, then what to do in the CLI.
    const anywhere = await tasklane(['add', 'Not allowed either'], vic)
    expect(anywhere.status).toBe(1)
    expect(anywhere.stderr.split('\n').slice(1)).toEqual([
      "Name a list you can edit with --list LIST, or make one with 'tasklane lists create NAME'.",
      '',
    ])

    expect(await tasklane(['members', 'rm', name, 'viewer-vic'], admin)).toEqual({
      status: 0,
      stdout: `Removed viewer-vic from list ${list.id}.\n`,
      stderr: '',
    })
    // Now the list is none of vic's: its name is unknown to it.
    const after = await tasklane(['list', '--list', String(list.id)], vic)
    expect(after.status).toBe(1)
    expect(after.stderr).toContain('(HTTP 404 from GET')
  })

  it('needs --role to add a member', async () => {
    const result = await tasklane(['members', 'add', '1', 'someone'], admin)
    expect(result).toEqual({
      status: 2,
      stdout: '',
      stderr:
        "tasklane: Give --role: 'viewer', 'editor' or 'owner'. See 'tasklane members add --help'.\n",
    })
  })
})

describe('tasklane tokens', () => {
  it('creates a token (its secret once), lists it without it, revokes it: then it gets 401', async () => {
    const name = unique('Reader')
    const list = await json<List>(admin, 'lists', 'create', name)
    const created = await tasklane(
      ['tokens', 'create', '--name', 'ci', '--role', 'read', '--list', name, '--expires', '30d'],
      admin,
    )
    expect(created.status).toBe(0)
    const secret = /^Token: (tl_[\w-]+)$/m.exec(created.stdout)?.[1] as string
    expect(secret).toBeDefined()
    expect(created.stdout).toContain('This token is shown only this once')
    expect(created.stdout).toMatch(/^ID +NAME +PRINCIPAL +ROLE +LISTS +EXPIRES +CREATED$/m)

    const tokens = await json<Token[]>(admin, 'tokens', 'ls')
    const token = tokens.find((each) => each.lists?.[0] === list.id)
    expect(token).toMatchObject({ name: 'ci', principal: 'admin', role: 'read', lists: [list.id] })
    const days = (Date.parse(token?.expiresAt ?? '') - Date.now()) / 86_400_000
    expect(days).toBeGreaterThan(29.9)
    expect(days).toBeLessThan(30.1)
    expect(JSON.stringify(tokens)).not.toContain(secret)
    const id = token?.id as number

    // The token reads its list, and nothing else.
    const reader = { ...newUser('reader'), TASKLANE_TOKEN: secret }
    expect((await json<List[]>(reader, 'lists')).map((each) => each.id)).toEqual([list.id])

    expect(await tasklane(['tokens', 'revoke', String(id)], admin)).toEqual({
      status: 0,
      stdout: `Revoked token ${id}.\n`,
      stderr: '',
    })
    expect((await json<Token[]>(admin, 'tokens', 'ls')).map((each) => each.id)).not.toContain(id)
    const revoked = await tasklane(['lists'], reader)
    expect(revoked.status).toBe(1)
    expect(revoked.stderr).toContain('(HTTP 401 from GET')
    expect(revoked.stderr).toContain('The token of TASKLANE_TOKEN was refused')

    // A revoked token stored by login: refused at login, nothing stored.
    const env = newUser('revoked')
    expect((await login(`${secret}\n`, env)).status).toBe(1)
    expect(existsSync(join(env.HOME as string, '.config'))).toBe(false)
  })

  it('needs --name', async () => {
    const result = await tasklane(['tokens', 'create'], admin)
    expect(result.status).toBe(2)
    expect(result.stderr).toBe(
      "tasklane: Give --name NAME: what the token is for. See 'tasklane tokens create --help'.\n",
    )
  })
})
