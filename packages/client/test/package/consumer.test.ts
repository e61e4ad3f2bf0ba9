import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { startServer } from '../server.js'

const run = promisify(execFile)

/** Runs a command in the consumer project; never throws, so that failures can be asserted. */
async function exec(dir: string, file: string, args: string[], env: Record<string, string> = {}) {
  try {
    const { stdout, stderr } = await run(file, args, { cwd: dir, env: { ...process.env, ...env } })
    return { code: 0, stdout, stderr }
  } catch (error) {
    const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string }
    return { code, stdout, stderr }
  }
}

/** A script that uses the installed package as an app would, printing what it got. */
const script = (load: string) => `${load}
const client = createClient({ baseUrl: process.env.TASKLANE_URL, validate: validateResponses })
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

const ESM = script(`import { ApiError, createClient, isApiError } from '@tasklane/client'
import { validateResponses } from '@tasklane/client/validate'`)

const CJS = script(`const { ApiError, createClient, isApiError } = require('@tasklane/client')
const { validateResponses } = require('@tasklane/client/validate')`)

/** Typed use of the whole API surface, compiled by tsc under each module resolution. */
const GOOD_TS = `import {
  ApiError,
  createClient,
  isTasklaneError,
  type NewTask,
  type Task,
  type TasklaneClient,
  ValidationError,
} from '@tasklane/client'
import { validateNewTask, validateResponses } from '@tasklane/client/validate'

const client: TasklaneClient = createClient({
  baseUrl: 'http://127.0.0.1:3000',
  token: () => 'secret',
  retry: { maxRetries: 3, initialDelayMs: 100 },
  validate: validateResponses,
})

export async function demo(signal: AbortSignal): Promise<number> {
  const input: NewTask = { name: 'Write docs', tag: 'docs' }
  if (validateNewTask(input) !== undefined) return -1
  const task: Task = await client.createTask(input, { idempotencyKey: 'k-1', signal })
  const id: number = task.id
  const tag: string | undefined = task.tag
  const tasks: Task[] = await client.listTasks(10, { after: id, tag })
  for await (const each of client.tasks({ pageSize: 50 })) tasks.push(each)
  try {
    await client.getTask(id, { timeoutMs: 1000, retry: false })
  } catch (error) {
    if (error instanceof ApiError) return error.status
    if (error instanceof ValidationError) return error.path.length
    if (isTasklaneError(error)) return 0
  }
  return tasks.length
}
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

let dir: string
let server: Awaited<ReturnType<typeof startServer>>

describe('the packed packages, installed with npm outside the repository', {
  timeout: 180_000,
}, () => {
  beforeAll(async () => {
    const { contract, client } = inject('tarballs')
    dir = await mkdtemp(join(tmpdir(), 'tasklane-consumer-'))
    await writeFile(
      join(dir, 'package.json'),
      JSON.stringify({ name: 'consumer', private: true, version: '0.0.0' }),
    )
    const install = await exec(dir, 'npm', [
      'install',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      contract,
      client,
      'typescript@5',
      '@types/node@20',
    ])
    expect(install.stderr + install.stdout).not.toMatch(/ERR!/)
    expect(install.code).toBe(0)
    await writeFile(join(dir, 'esm.mjs'), ESM)
    await writeFile(join(dir, 'cjs.cjs'), CJS)
    await writeFile(join(dir, 'good.ts'), GOOD_TS)
    await writeFile(join(dir, 'bad.ts'), BAD_TS)
    server = await startServer()
  }, 240_000)

  afterAll(async () => {
    await server?.close()
    if (dir) await rm(dir, { recursive: true, force: true })
  })

  it('ships only dist, README and LICENSE, with no workspace: ranges', async () => {
    for (const name of ['client', 'contract']) {
      const { stdout } = await exec(dir, 'tar', ['tzf', inject('tarballs')[name as 'client']])
      const files = stdout.trim().split('\n').sort()
      expect(files).toContain('package/README.md')
      expect(files).toContain('package/LICENSE')
      expect(files).toContain('package/dist/index.js')
      expect(
        files.filter((f) => !/^package\/(dist\/.+|README\.md|LICENSE|package\.json)$/.test(f)),
      ).toEqual([])
      const manifest = JSON.parse(
        await readFile(join(dir, 'node_modules/@tasklane', name, 'package.json'), 'utf8'),
      )
      expect(JSON.stringify(manifest)).not.toContain('workspace:')
      expect(manifest.sideEffects).toBe(false)
      expect(manifest.exports['.'].import.types).toBe('./dist/index.d.ts')
      expect(manifest.exports['.'].require.types).toBe('./dist/index.d.cts')
    }
  })

  it.each([
    ['ESM import', 'esm.mjs'],
    ['CommonJS require', 'cjs.cjs'],
  ])('works with %s against a live server', async (_label, file) => {
    const result = await exec(dir, process.execPath, [file], { TASKLANE_URL: server.url })
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    const output = JSON.parse(result.stdout)
    expect(output.task).toEqual({
      id: expect.any(Number),
      name: 'from a consumer 🚀',
      tag: 'consumer',
    })
    expect(output.listed).toContain(output.task.id)
    expect(output).toMatchObject({
      apiError: true,
      status: 404,
      message: 'Task 987654321 does not exist.',
    })
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
})
