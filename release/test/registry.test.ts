import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { envName, SettingsSchema } from '@tasklane/server'
import { killAll, launch, type ServerProcess, within } from '@tasklane/testing/launch'
import { PNPM, publishablePackages, ROOT } from '@tasklane/testing/packages'
import { runToEnd } from '@tasklane/testing/run'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Registry, startVerdaccio } from './verdaccio.js'

let dir: string
let registry: Registry
/** Every npm and npx below reads the test's npm configuration and an npm cache of its own. */
let env: NodeJS.ProcessEnv

/** Runs a command to its end with the test's npm environment; never throws. */
const run = (cwd: string, command: string, args: string[], extra: NodeJS.ProcessEnv = {}) =>
  runToEnd(command, args, { cwd, env: { ...env, ...extra } })

/** A program using the installed client against the server, printing what it got. */
const program = (load: string, validate: boolean) => `${load}
const client = createClient({ baseUrl: process.env.TASKLANE_URL${validate ? ', validate: validateResponses' : ''} })
const main = async () => {
  const task = await client.createTask({ name: 'from the registry', tag: 'registry' })
  const done = await client.completeTask(task.id, { ifMatch: task.version })
  const missing = await client.getTask(987654321).catch((e) => e)
  console.log(JSON.stringify({ task, done, got: await client.getTask(task.id), status: missing.status }))
}
main().catch((error) => { console.error(error); process.exit(1) })
`
/** An ISO 8601 time in UTC with milliseconds, as the server writes createdAt and updatedAt. */
const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/
const ESM = `import { createClient } from '@tasklane/client'`
const CJS = `const { createClient } = require('@tasklane/client')`
const PROGRAMS = {
  'app.mjs': program(ESM, false),
  'app.cjs': program(CJS, false),
  'validate.mjs': program(
    `${ESM}\nimport { validateResponses } from '@tasklane/client/validate'`,
    true,
  ),
}

/** Typed use of the client, compiled by tsc: the declarations as the registry serves them. */
const TYPED = `import { createClient, isApiError, type NewTask, type Task } from '@tasklane/client'

const client = createClient({ baseUrl: 'http://127.0.0.1:3000' })
export async function create(input: NewTask): Promise<Task | number> {
  return client.createTask(input).catch((error: unknown) => (isApiError(error) ? error.status : 0))
}
`

describe('a release to a real registry (Verdaccio), installed as a user would', {
  timeout: 600_000,
}, () => {
  /** The directory `npx @tasklane/server` is started from: an empty one. */
  let serverHome: string
  /** An app that has run `npm install @tasklane/client`. */
  let app: string
  let server: ServerProcess

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tasklane-registry-'))
    registry = await startVerdaccio(join(dir, 'verdaccio'))
    env = {
      ...process.env,
      npm_config_userconfig: registry.npmrc,
      // Its own cache: npx must install this release, not one cached by an earlier run.
      npm_config_cache: join(dir, 'npm-cache'),
    }
    serverHome = join(dir, 'server-home')
    app = join(dir, 'app')
    await mkdir(serverHome)
    await mkdir(app)
    await writeFile(
      join(app, 'package.json'),
      JSON.stringify({ name: 'app', private: true, version: '0.0.0' }),
    )
  }, 120_000)

  // The registry's storage, npm's cache and three installed projects: slow to remove on a
  // busy machine (10 s were not enough at a load average of 10).
  afterAll(async () => {
    await killAll()
    if (dir) await rm(dir, { recursive: true, force: true })
  }, 60_000)

  it('publishes every publishable package with the README release command', async () => {
    const release = await run(ROOT, 'npx', [...PNPM, 'release', '--registry', registry.url])
    expect(release.code, release.stdout + release.stderr).toBe(0)
    for (const p of publishablePackages()) {
      expect(release.stdout).toContain(`${p.name}@${p.version} published`)
      const view = await run(app, 'npm', ['view', `${p.name}@${p.version}`, 'version'])
      expect(view.stdout.trim()).toBe(p.version)
    }
  }, 300_000)

  it('runs again without publishing anything twice', async () => {
    const again = await run(ROOT, 'npx', [...PNPM, 'release', '--registry', registry.url])
    expect(again.code, again.stdout + again.stderr).toBe(0)
    for (const p of publishablePackages()) {
      expect(again.stdout).toContain(`${p.name}@${p.version} is on the registry already`)
    }
  }, 300_000)

  it('npx @tasklane/server --help lists every setting; --version prints the version', async () => {
    // The first npx installs the server into its cache, compiling better-sqlite3 where no
    // prebuilt binary can be fetched (here: about 2 minutes); the later ones reuse it.
    const help = await run(serverHome, 'npx', ['--yes', '@tasklane/server', '--help'])
    expect(help.code, help.stderr).toBe(0)
    expect(help.stdout).toMatch(/^Usage: tasklane-server \[options\]/)
    for (const key of Object.keys(SettingsSchema.properties)) {
      expect(help.stdout).toContain(envName(key as keyof typeof SettingsSchema.properties))
    }
    const version = await run(serverHome, 'npx', ['--yes', '@tasklane/server', '--version'])
    const server = publishablePackages().find((p) => p.name === '@tasklane/server')
    expect(version.stdout).toBe(`${server?.version}\n`)
  }, 600_000)

  it('npx @tasklane/server starts the server, its data in ./data/tasklane.db', async () => {
    server = await launch({
      command: 'npx',
      args: ['--yes', '@tasklane/server'],
      cwd: serverHome,
      env: { ...env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' },
      detached: true,
      timeoutMs: 120_000,
    })
    const health = await fetch(`${server.url}/health/ready`)
    expect(health.status).toBe(200)
    expect(existsSync(join(serverHome, 'data/tasklane.db'))).toBe(true)
  }, 180_000)

  it('the server from the registry serves the web page at / and its hashed files', async () => {
    const page = await fetch(`${server.url}/`)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8')
    const script = /<script type="module" crossorigin src="(\/assets\/[^"]+\.js)"/.exec(
      await page.text(),
    )?.[1]
    const asset = await fetch(`${server.url}${script ?? expect.unreachable()}`)
    expect(asset.status).toBe(200)
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
  })

  it('npm install @tasklane/client installs the client alone: no contract, no TypeBox', async () => {
    const install = await run(app, 'npm', ['install', '@tasklane/client', 'typescript@5'])
    expect(install.code, install.stderr).toBe(0)
    expect(await readdir(join(app, 'node_modules/@tasklane'))).toEqual(['client'])
    expect(existsSync(join(app, 'node_modules/@sinclair'))).toBe(false)
    for (const [file, text] of Object.entries(PROGRAMS)) await writeFile(join(app, file), text)
    await writeFile(join(app, 'typed.ts'), TYPED)
  }, 300_000)

  it.each(['app.mjs', 'app.cjs'])(
    'the client creates a task on the server from the registry (%s)',
    async (file) => {
      const result = await run(app, process.execPath, [file], { TASKLANE_URL: server.url })
      expect(result.stderr).toBe('')
      const output = JSON.parse(result.stdout)
      expect(output.task).toEqual({
        id: expect.any(Number),
        listId: 1,
        name: 'from the registry',
        tag: 'registry',
        status: 'open',
        priority: 0,
        position: expect.stringMatching(/^[0-9A-Za-z]+$/),
        version: 1,
        createdAt: expect.stringMatching(ISO_TIME),
        createdBy: 'local',
        updatedAt: output.task.createdAt,
        updatedBy: 'local',
      })
      expect(output.done).toMatchObject({ id: output.task.id, status: 'done', version: 2 })
      expect(output.got).toEqual(output.done)
      expect(output.status).toBe(404)
    },
  )

  it('npx @tasklane/cli --help prints the usage; tasklane add and list work on the server', async () => {
    // An empty directory: npx installs the CLI, and the client it depends on, from the registry.
    const cliHome = join(dir, 'cli-home')
    await mkdir(cliHome)
    const help = await run(cliHome, 'npx', ['--yes', '@tasklane/cli', '--help'])
    expect(help.code, help.stderr).toBe(0)
    expect(help.stdout).toMatch(/^Usage: tasklane <command> \[options\]/)
    const url = { TASKLANE_URL: server.url }
    const add = await run(
      cliHome,
      'npx',
      ['--yes', '@tasklane/cli', 'add', 'from the CLI', '--tag', 'npx', '--json'],
      url,
    )
    expect(add.code, add.stderr).toBe(0)
    const task = JSON.parse(add.stdout)
    expect(task).toMatchObject({ name: 'from the CLI', tag: 'npx', status: 'open', version: 1 })
    const done = await run(
      cliHome,
      'npx',
      ['--yes', '@tasklane/cli', 'done', String(task.id), '--json'],
      url,
    )
    expect(done.code, done.stderr).toBe(0)
    const list = await run(
      cliHome,
      'npx',
      ['--yes', '@tasklane/cli', 'list', '--tag', 'npx', '--json'],
      url,
    )
    expect(list.code, list.stderr).toBe(0)
    const [marked] = JSON.parse(done.stdout)
    expect(marked).toMatchObject({ id: task.id, status: 'done', version: 2 })
    expect(JSON.parse(list.stdout)).toEqual([marked])
  }, 300_000)

  it('the client type-checks with tsc', async () => {
    await writeFile(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          module: 'node16',
          lib: ['ES2022', 'DOM'],
          types: [],
          skipLibCheck: false,
        },
        files: ['typed.ts'],
      }),
    )
    const result = await run(app, 'node_modules/.bin/tsc', ['-p', '.'])
    expect(result.stdout).toBe('')
    expect(result.code).toBe(0)
  })

  it('@tasklane/client/validate works once the contract and TypeBox are installed', async () => {
    const install = await run(app, 'npm', ['install', '@tasklane/contract', '@sinclair/typebox'])
    expect(install.code, install.stderr).toBe(0)
    const result = await run(app, process.execPath, ['validate.mjs'], { TASKLANE_URL: server.url })
    expect(result.stderr).toBe('')
    expect(JSON.parse(result.stdout).task.name).toBe('from the registry')
  }, 300_000)

  it('the server stops on SIGTERM with exit code 0', async () => {
    // npx does not pass SIGTERM on: signal the server itself, as a supervisor would.
    process.kill(server.pid, 'SIGTERM')
    const exit = await within(server.exited, 15_000, 'npx ending after the server')
    expect(exit.code).toBe(0)
  })
})
