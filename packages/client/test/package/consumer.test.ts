// The packed client installed as users install it (ESM, CJS, TypeScript module modes, Bun,
// Deno): over 300 lines because each way of consuming it is a test of its own.
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { commandExists, systemHas } from '@tasklane/testing/requirements'
import { runToEnd } from '@tasklane/testing/run'
import { startServer } from '@tasklane/testing/server'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'

/** Runs a command in the consumer project; never throws, so that failures can be asserted. */
const exec = (dir: string, file: string, args: string[], env: Record<string, string> = {}) =>
  runToEnd(file, args, { cwd: dir, env: { ...process.env, ...env } })

/**
 * A script that uses the installed client as an app would, printing what it got. `validate`
 * adds `@tasklane/client/validate`, which needs the contract and TypeBox installed beside it.
 */
const script = (load: string, validate: boolean) => `${load}
const client = createClient({ baseUrl: process.env.TASKLANE_URL${validate ? ', validate: validateResponses' : ''} })
const main = async () => {
  const task = await client.createTask({ name: 'from a consumer 🚀', tag: 'consumer' })
  const listed = []
  for await (const t of client.tasks({ tag: 'consumer', pageSize: 1 })) listed.push(t.id)
  const missing = await client.getTask(987654321).catch((e) => e)
  console.log(JSON.stringify({
    task,
    listed,
    apiError: missing instanceof ApiError && isApiError(missing),
    status: missing.status,
    message: missing.message,
  }))
}
main().catch((error) => { console.error(error); process.exit(1) })
`

/**
 * A script that keeps a live copy of a listing with `@tasklane/client/live` while it creates
 * a task, printing what the copy held once it had it.
 */
const liveScript = (load: string) => `${load}
const client = createClient({ baseUrl: process.env.TASKLANE_URL })
const main = async () => {
  const tag = 'live-' + Date.now()
  const live = new LiveTasks(client, { tag, order: 'desc', limit: 2 })
  // Checked at once too: the change may have been applied before the call returned.
  const when = (done) => new Promise((resolve) => {
    const check = () => { if (done() || live.closed) { off(); resolve() } }
    const off = live.subscribe(check)
    check()
  })
  await when(() => live.caughtUp)
  const task = await client.createTask({ name: 'seen live', tag })
  await when(() => live.caughtUp && live.seq > 0 && live.tasks.some((t) => t.id === task.id))
  live.close()
  console.log(JSON.stringify({ names: live.tasks.map((t) => t.name), closed: live.closed }))
}
main().catch((error) => { console.error(error); process.exit(1) })
`

const ESM = `import { ApiError, createClient, isApiError } from '@tasklane/client'`
const CJS = `const { ApiError, createClient, isApiError } = require('@tasklane/client')`

/** Each script, by file name: the default entry alone, then with validation. */
const SCRIPTS = {
  'esm.mjs': script(ESM, false),
  'cjs.cjs': script(CJS, false),
  'esm-validate.mjs': script(
    `${ESM}\nimport { validateResponses } from '@tasklane/client/validate'`,
    true,
  ),
  'cjs-validate.cjs': script(
    `${CJS}\nconst { validateResponses } = require('@tasklane/client/validate')`,
    true,
  ),
  'live.mjs': liveScript(`${ESM}\nimport { LiveTasks } from '@tasklane/client/live'`),
  'live.cjs': liveScript(`${CJS}\nconst { LiveTasks } = require('@tasklane/client/live')`),
}

/** Typed use of the default entry's whole surface, compiled by tsc under each module resolution. */
const GOOD_TS = `import {
  ApiError,
  createClient,
  type ErrorBody,
  isTasklaneError,
  type NewTask,
  type Task,
  type TasklaneClient,
  type CreatedToken,
  type List,
  type Me,
  type PutMemberResult,
  type Role,
  PreconditionFailedError,
  ValidationError,
} from '@tasklane/client'
import { LiveTasks } from '@tasklane/client/live'

const client: TasklaneClient = createClient({
  baseUrl: 'http://127.0.0.1:3000',
  token: () => 'secret',
  retry: { maxRetries: 3, initialDelayMs: 100 },
})

export async function demo(signal: AbortSignal): Promise<number> {
  const input: NewTask = { name: 'Write docs', tag: 'docs' }
  const task: Task = await client.createTask(input, { idempotencyKey: 'k-1', signal })
  const id: number = task.id
  const tag: string | undefined = task.tag
  const tasks: Task[] = await client.listTasks(10, { after: id, tag })
  for await (const each of client.tasks({ pageSize: 50 })) tasks.push(each)
  const done: Task = await client.completeTask(id, { ifMatch: task.version })
  const cached: Task | undefined = await client.getTask(id, { ifNoneMatch: done.version })
  for await (const event of client.watch({ after: 0, status: 'open', list: 1, signal })) {
    if (event.type === 'reset') continue
    if (event.type === 'deleted') return event.task.version
    if (cached === undefined) return event.task.name.length
  }
  const list: List = await client.createList({ name: 'Team' })
  const { created }: PutMemberResult = await client.putMember(list.id, 'bob', 'editor')
  const role: Role | undefined = (await client.listMembers(list.id))[0]?.role
  const made: CreatedToken = await client.createToken({ name: 'CI', role: 'read' })
  const me: Me = await client.me()
  if (created && role === 'owner' && me.roles.length > 0) return made.token.length
  const live = new LiveTasks(client, { status: 'open', order: 'desc', limit: 5, signal })
  live.subscribe((copy) => tasks.push(...copy.tasks))
  live.close()
  try {
    await client.getTask(id, { timeoutMs: 1000, retry: false })
    await client.deleteTask(id, { ifMatch: '"2"' })
  } catch (error) {
    if (error instanceof PreconditionFailedError) return error.version ?? 0
    if (error instanceof ApiError) return (error.body as ErrorBody).code
    if (error instanceof ValidationError) return error.path.length
    if (isTasklaneError(error)) return 0
  }
  return tasks.length
}
`

/** The validation entry, typed: compiled once the contract and TypeBox are installed. */
const VALIDATE_TS = `import { createClient, type NewTask } from '@tasklane/client'
import { validateNewTask, validateResponses } from '@tasklane/client/validate'

const input: NewTask = { name: 'Write docs' }
export const problem: string | undefined = validateNewTask(input)?.message
export const client = createClient({ baseUrl: 'http://127.0.0.1:3000', validate: validateResponses })
`

/** The default entry on Deno, type-checked by Deno itself: a TypeScript consumer program. */
const DENO_TS = `import { createClient, isApiError, type Task } from '@tasklane/client'

const client = createClient({ baseUrl: Deno.env.get('TASKLANE_URL') ?? '' })
const task: Task = await client.createTask({ name: 'from Deno 🦕', tag: 'deno' })
const listed: number[] = []
for await (const t of client.tasks({ tag: 'deno', pageSize: 1 })) listed.push(t.id)
const missing = await client.getTask(987654321).catch((e: unknown) => e)
console.log(JSON.stringify({
  task,
  listed,
  apiError: isApiError(missing),
  status: isApiError(missing) ? missing.status : 0,
  message: isApiError(missing) ? missing.message : '',
}))
`

const BAD_TS = `import { createClient } from '@tasklane/client'

const client = createClient({ baseUrl: 'http://127.0.0.1:3000' })
export const created = client.createTask({ nam: 'x' })
`

const tsconfig = (options: Record<string, unknown>, files: string[]) =>
  JSON.stringify({
    compilerOptions: {
      target: 'ES2022',
      strict: true,
      noEmit: true,
      skipLibCheck: false,
      ...options,
    },
    files,
  })

/** Module resolutions a consumer may use: Node's own, and a bundler's. */
const SETUPS = {
  node16: { module: 'node16', moduleResolution: 'node16', lib: ['ES2022', 'DOM'], types: [] },
  bundler: {
    module: 'esnext',
    moduleResolution: 'bundler',
    lib: ['ES2022', 'DOM'],
    types: [],
  },
  // A Node project without the DOM library: fetch's types come from @types/node.
  'node16 with @types/node only': {
    module: 'node16',
    moduleResolution: 'node16',
    lib: ['ES2022'],
    types: ['node'],
  },
}

/** Bun and Deno: the binaries CI installs from npm (`.ci/run`), or the ones on the PATH. */
const BUN = process.env.TASKLANE_TEST_BUN || 'bun'
const DENO = process.env.TASKLANE_TEST_DENO || 'deno'
const RUNTIME_HINT =
  'npm install bun deno, then TASKLANE_TEST_BUN / TASKLANE_TEST_DENO (bash .ci/run does)'
const hasBun = systemHas(`Bun (${BUN})`, commandExists(BUN), RUNTIME_HINT)
const hasDeno = systemHas(`Deno (${DENO})`, commandExists(DENO), RUNTIME_HINT)

/** What a consumer program printed: the task it made, a listing, and the 404 it caught. */
function expectConsumerRun(result: Awaited<ReturnType<typeof exec>>, name: string, tag: string) {
  expect(result.stderr).toBe('')
  expect(result.code).toBe(0)
  const output = JSON.parse(result.stdout)
  expect(output.task).toEqual({
    id: expect.any(Number),
    listId: 1,
    name,
    tag,
    status: 'open',
    priority: 0,
    position: expect.any(String),
    version: 1,
    createdAt: expect.any(String),
    createdBy: 'local',
    updatedAt: expect.any(String),
    updatedBy: 'local',
  })
  expect(output.listed).toContain(output.task.id)
  expect(output).toMatchObject({
    apiError: true,
    status: 404,
    message: 'Task 987654321 does not exist.',
  })
}

let dir: string
let server: Awaited<ReturnType<typeof startServer>>

const npmInstall = (...specs: string[]) =>
  exec(dir, 'npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...specs])

describe('the packed client, installed with npm outside the repository', {
  timeout: 180_000,
}, () => {
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tasklane-consumer-'))
    await writeFile(
      join(dir, 'package.json'),
      JSON.stringify({ name: 'consumer', private: true, version: '0.0.0' }),
    )
    const install = await npmInstall(inject('tarballs').client, 'typescript@5', '@types/node@20')
    expect(install.stderr + install.stdout).not.toMatch(/ERR!/)
    expect(install.code).toBe(0)
    for (const [file, text] of Object.entries(SCRIPTS)) await writeFile(join(dir, file), text)
    await writeFile(join(dir, 'good.ts'), GOOD_TS)
    await writeFile(join(dir, 'validate.ts'), VALIDATE_TS)
    await writeFile(join(dir, 'deno.ts'), DENO_TS)
    await writeFile(join(dir, 'bad.ts'), BAD_TS)
    server = await startServer()
  }, 240_000)

  afterAll(async () => {
    await server?.close()
    if (dir) await rm(dir, { recursive: true, force: true })
  })

  it('ships only dist, README and LICENSE, with no workspace: ranges', async () => {
    const { stdout } = await exec(dir, 'tar', ['tzf', inject('tarballs').client])
    const files = stdout.trim().split('\n').sort()
    expect(files).toContain('package/README.md')
    expect(files).toContain('package/LICENSE')
    expect(files).toContain('package/dist/index.js')
    expect(
      files.filter((f) => !/^package\/(dist\/.+|README\.md|LICENSE|package\.json)$/.test(f)),
    ).toEqual([])
    const manifest = JSON.parse(
      await readFile(join(dir, 'node_modules/@tasklane/client/package.json'), 'utf8'),
    )
    expect(JSON.stringify(manifest)).not.toContain('workspace:')
    expect(manifest.sideEffects).toBe(false)
    expect(manifest.exports['.'].import.types).toBe('./dist/index.d.ts')
    expect(manifest.exports['.'].require.types).toBe('./dist/index.d.cts')
  })

  it('installs neither the contract nor TypeBox for the default entry', async () => {
    const installed = await readdir(join(dir, 'node_modules'))
    expect(installed).not.toContain('@sinclair')
    expect(await readdir(join(dir, 'node_modules/@tasklane'))).toEqual(['client'])
  })

  it.each([
    ['ESM import', 'esm.mjs'],
    ['CommonJS require', 'cjs.cjs'],
  ])('works with %s against a live server', async (_label, file) => {
    const result = await exec(dir, process.execPath, [file], { TASKLANE_URL: server.url })
    expectConsumerRun(result, 'from a consumer 🚀', 'consumer')
  })

  it.concurrent.each(Object.entries(SETUPS))(
    'type-checks a typed use under %s',
    async (name, options) => {
      const config = `tsconfig.${name.replace(/\W+/g, '-')}.json`
      await writeFile(join(dir, config), tsconfig(options, ['good.ts']))
      const result = await exec(dir, 'node_modules/.bin/tsc', ['-p', config])
      expect(result.stdout).toBe('')
      expect(result.code).toBe(0)
    },
  )

  it.concurrent.each(Object.entries(SETUPS))(
    'rejects createTask({ nam }) under %s',
    async (name, options) => {
      const config = `tsconfig.bad.${name.replace(/\W+/g, '-')}.json`
      // The declaration files were checked by the test above; only the call matters here.
      await writeFile(join(dir, config), tsconfig({ ...options, skipLibCheck: true }, ['bad.ts']))
      const result = await exec(dir, 'node_modules/.bin/tsc', ['-p', config])
      expect(result.code).not.toBe(0)
      // Exactly one error, and it is the misspelt property, not a module that failed to resolve.
      const errors = result.stdout.split('\n').filter((line) => line.includes('error TS'))
      expect(errors).toHaveLength(1)
      expect(errors[0]).toMatch(/^bad\.ts\(4,\d+\): error TS(2353|2561): .*'nam'/)
    },
  )

  it.each([
    ['ESM import', 'live.mjs'],
    ['CommonJS require', 'live.cjs'],
  ])('keeps a live listing with @tasklane/client/live by %s', async (_label, file) => {
    const result = await exec(dir, process.execPath, [file], { TASKLANE_URL: server.url })
    expect(result.stderr).toBe('')
    expect(JSON.parse(result.stdout)).toEqual({ names: ['seen live'], closed: true })
  })

  describe.runIf(hasBun)('on Bun', () => {
    it('works with ESM import against a live server', async () => {
      const result = await exec(dir, BUN, ['esm.mjs'], { TASKLANE_URL: server.url })
      expectConsumerRun(result, 'from a consumer 🚀', 'consumer')
    })

    it('keeps a live listing with @tasklane/client/live', async () => {
      const result = await exec(dir, BUN, ['live.mjs'], { TASKLANE_URL: server.url })
      expect(JSON.parse(result.stdout)).toEqual({ names: ['seen live'], closed: true })
    })
  })

  describe.runIf(hasDeno)('on Deno', () => {
    it('type-checks and runs a TypeScript program against a live server', async () => {
      const result = await exec(
        dir,
        DENO,
        ['run', '--check', '--allow-net', '--allow-env', 'deno.ts'],
        { TASKLANE_URL: server.url, NO_COLOR: '1' },
      )
      // Deno reports its type check on stderr ("Check deno.ts"); nothing else may be there.
      result.stderr = result.stderr.replace(/^Check .*\n/gm, '')
      expectConsumerRun(result, 'from Deno 🦕', 'deno')
    })
  })

  describe('with @tasklane/contract and TypeBox installed for @tasklane/client/validate', () => {
    beforeAll(async () => {
      const install = await npmInstall(inject('tarballs').contract, '@sinclair/typebox@^0.34')
      expect(install.stderr + install.stdout).not.toMatch(/ERR!/)
      expect(install.code).toBe(0)
    }, 120_000)

    it.each([
      ['ESM import', 'esm-validate.mjs'],
      ['CommonJS require', 'cjs-validate.cjs'],
    ])('validates responses with %s against a live server', async (_label, file) => {
      const result = await exec(dir, process.execPath, [file], { TASKLANE_URL: server.url })
      expectConsumerRun(result, 'from a consumer 🚀', 'consumer')
    })

    it.concurrent.each(Object.entries(SETUPS))('type-checks it under %s', async (name, options) => {
      const config = `tsconfig.validate.${name.replace(/\W+/g, '-')}.json`
      await writeFile(join(dir, config), tsconfig(options, ['validate.ts']))
      const result = await exec(dir, 'node_modules/.bin/tsc', ['-p', config])
      expect(result.stdout).toBe('')
      expect(result.code).toBe(0)
    })
  })
})
