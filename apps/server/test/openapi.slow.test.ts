import { execFile } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServer } from './support/server.js'
import { onPostgres } from './support/test-database.js'

const run = promisify(execFile)
const BIN = resolve(import.meta.dirname, '../node_modules/.bin')
const REDOCLY = join(BIN, 'redocly')
const SPECTRAL = join(BIN, 'spectral')
const TSC = resolve(import.meta.dirname, '../../../node_modules/.bin/tsc')

/** Uses the generated types as a client of the document would. */
const USE_GENERATED = `import type { components, operations } from './generated.js'

type Created = operations['createTask']['responses'][201]
export const task: Created['content']['application/json'] = {
  id: 1,
  listId: 1,
  name: 'Write docs',
  status: 'open',
  priority: 0,
  position: 'a0',
  version: 1,
  createdAt: '2026-11-25T09:30:00.000Z',
  createdBy: 'local',
  updatedAt: '2026-11-25T09:30:00.000Z',
  updatedBy: 'local',
}
export const location: Created['headers']['Location'] = '/tasks/1'
export const etag: Created['headers']['ETag'] = '"1"'
export const seq: Created['headers']['Tasklane-Seq'] = 1
type Patch = NonNullable<operations['updateTask']['requestBody']>['content']['application/json']
export const patch: Patch = { status: 'done', tag: null }
export const changed: operations['updateTask']['responses'][200]['content']['application/json'] = {
  ...task,
  status: 'done',
  version: 2,
}
type Stale = operations['updateTask']['responses'][412]['content']['application/json']
export const stale: Stale = { code: 412, message: 'Task 1 has changed.' }
export const deletedSeq: operations['deleteTask']['responses'][204]['headers']['Tasklane-Seq'] = 2
export const notModified: operations['getTask']['responses'][304]['headers']['ETag'] = '"2"'
export const deleted: components['schemas']['DeletedTask'] = { id: 1, version: 2 }
type Conflict = operations['createTask']['responses'][409]['content']['application/json']
export const conflict: Conflict = { code: 409, message: 'In flight.' }
export const error: components['schemas']['Error'] = conflict
type Missing = operations['getTask']['responses'][404]['content']['application/json']
export const missing: Missing = { code: 404, message: 'Task 1 does not exist.' }
`

interface Response {
  description: string
  headers?: Record<string, { description: string; schema: unknown }>
  content?: Record<string, { schema: { $ref?: string } }>
}
interface Operation {
  operationId: string
  responses: Record<string, Response>
}
interface OpenApiDocument {
  info: { license?: { name: string; url?: string } }
  servers?: { url: string }[]
  security?: Record<string, string[]>[]
  components: { securitySchemes?: Record<string, { type: string; scheme: string }> }
  paths: Record<string, Record<string, Operation>>
}

/** A public name the server is reached by in these tests (lint rules frown on localhost). */
const PUBLIC_HOST = 'tasks.tasklane.dev'

/** The document as a server with these settings serves it at /openapi.json, to a client of PUBLIC_HOST. */
async function served(settings: { apiToken?: string; rateLimit?: number }) {
  const server = await startServer({ settings: { ...settings, allowedHosts: [PUBLIC_HOST] } })
  try {
    const response = await server.app.inject({
      url: '/openapi.json',
      headers: { host: PUBLIC_HOST },
    })
    expect(response.statusCode).toBe(200)
    return { text: response.body, document: response.json<OpenApiDocument>() }
  } finally {
    await server.close()
  }
}

const operation = (document: OpenApiDocument, id: string) => {
  const all = Object.values(document.paths).flatMap((methods) => Object.values(methods))
  return all.find((each) => each.operationId === id) ?? expect.unreachable(`no ${id}`)
}

/** Statuses of an operation's responses, as strings, in the document's order. */
const statuses = (document: OpenApiDocument, id: string) =>
  Object.keys(operation(document, id).responses)

// The document is the same on every backend: checked once, in the SQLite project.
describe.skipIf(onPostgres)('the OpenAPI document at /openapi.json', () => {
  const configurations = {
    'by default': {},
    'with an API token and a rate limit': { apiToken: 'secret', rateLimit: 100 },
  }
  const documents = new Map<string, Awaited<ReturnType<typeof served>>>()
  let dir: string

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tasklane-openapi-'))
    for (const [name, settings] of Object.entries(configurations)) {
      documents.set(name, await served(settings))
    }
  })
  afterAll(() => rm(dir, { recursive: true, force: true }))

  const document = (name: string) => documents.get(name)?.document ?? expect.unreachable()

  it.each(Object.keys(configurations))(
    'passes Redocly CLI lint (recommended rules) with no error and no warning %s',
    async (name) => {
      const file = join(dir, `${name.replace(/\W+/g, '-')}.json`)
      await writeFile(file, documents.get(name)?.text ?? '')
      const { stdout } = await run(REDOCLY, ['lint', file, '--format', 'json'], {
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      }).catch((error: { stdout: string }) => error)
      const report = JSON.parse(stdout) as {
        totals: { errors: number; warnings: number }
        problems: { ruleId: string; message: string }[]
      }
      expect(report.problems.map((p) => `${p.ruleId}: ${p.message}`)).toEqual([])
      expect(report.totals).toMatchObject({ errors: 0, warnings: 0 })
    },
    60_000,
  )

  it.each(Object.keys(configurations))(
    'passes Spectral lint (spectral:oas) with no error and no warning %s',
    async (name) => {
      const file = join(dir, `spectral-${name.replace(/\W+/g, '-')}.json`)
      await writeFile(file, documents.get(name)?.text ?? '')
      const ruleset = join(dir, '.spectral.json')
      await writeFile(ruleset, JSON.stringify({ extends: ['spectral:oas'] }))
      const { stdout } = await run(
        SPECTRAL,
        ['lint', file, '--ruleset', ruleset, '--format', 'json', '--quiet'],
        {
          env: { ...process.env, NO_COLOR: '1' },
        },
      ).catch((error: { stdout: string }) => error)
      const problems = JSON.parse(stdout || '[]') as {
        code: string
        message: string
        path: string[]
      }[]
      expect(problems.map((p) => `${p.code}: ${p.message} at ${p.path.join('.')}`)).toEqual([])
    },
    60_000,
  )

  it.each(Object.keys(configurations))(
    'becomes TypeScript types with openapi-typescript that compile and name each error %s',
    async (name) => {
      const file = join(dir, `generate-${name.replace(/\W+/g, '-')}.json`)
      const out = join(dir, 'generated.ts')
      await writeFile(file, documents.get(name)?.text ?? '')
      const generated = await run(join(BIN, 'openapi-typescript'), [file, '-o', out])
      expect(generated.stderr).not.toMatch(/warn|error/i)
      await writeFile(join(dir, 'use.ts'), USE_GENERATED)
      const compiled = await run(TSC, [
        '--strict',
        '--noEmit',
        '--module',
        'nodenext',
        join(dir, 'use.ts'),
      ]).catch((error: { stdout: string }) => error)
      expect(compiled.stdout).toBe('')
    },
    60_000,
  )

  it('names its server (the origin the request came to) and its license', () => {
    expect(document('by default').servers).toEqual([
      { url: `http://${PUBLIC_HOST}`, description: 'This server' },
    ])
    expect(document('by default').info.license).toEqual({
      name: 'MIT',
      url: 'https://opensource.org/license/mit',
    })
  })

  it('requires no credential by default, and a bearer token when the server has one', () => {
    expect(document('by default').security).toEqual([])
    expect(document('by default').components.securitySchemes).toBeUndefined()
    const secured = document('with an API token and a rate limit')
    expect(secured.security).toEqual([{ bearerAuth: [] }])
    expect(secured.components.securitySchemes).toEqual({
      bearerAuth: { type: 'http', scheme: 'bearer' },
    })
  })

  it('lists the responses each operation may answer, 401 and 429 only when they apply', () => {
    expect(statuses(document('by default'), 'getTasks')).toEqual(['200', '400', '503', 'default'])
    expect(statuses(document('by default'), 'createTask')).toEqual([
      '201',
      '400',
      '409',
      '413',
      '415',
      '422',
      '503',
      'default',
    ])
    expect(statuses(document('by default'), 'getTask')).toEqual([
      '200',
      '304',
      '400',
      '404',
      '503',
      'default',
    ])
    expect(statuses(document('by default'), 'updateTask')).toEqual([
      '200',
      '400',
      '404',
      '409',
      '412',
      '413',
      '415',
      '422',
      '503',
      'default',
    ])
    expect(statuses(document('by default'), 'deleteTask')).toEqual([
      '204',
      '400',
      '404',
      '409',
      '412',
      '422',
      '503',
      'default',
    ])
    expect(statuses(document('by default'), 'watchTasks')).toEqual(['200', '400', '503', 'default'])
    const secured = document('with an API token and a rate limit')
    expect(statuses(secured, 'getTask')).toEqual([
      '200',
      '304',
      '400',
      '401',
      '404',
      '429',
      '503',
      'default',
    ])
  })

  it('gives the 204 of deleteTask and the 304 of getTask no body', () => {
    const plain = document('by default')
    expect(operation(plain, 'deleteTask').responses['204']?.content).toBeUndefined()
    expect(operation(plain, 'getTask').responses['304']?.content).toBeUndefined()
  })

  it('gives every error response the Error schema and a description of its cause', () => {
    const ids = ['getTasks', 'createTask', 'getTask', 'updateTask', 'deleteTask', 'watchTasks']
    for (const id of ids) {
      const { responses } = operation(document('with an API token and a rate limit'), id)
      for (const [status, response] of Object.entries(responses)) {
        if (status.startsWith('2') || status === '304') continue
        expect(response.content?.['application/json']?.schema).toEqual({
          $ref: '#/components/schemas/Error',
        })
        expect(response.description.length).toBeGreaterThan(10)
      }
    }
  })

  it('documents the response headers: Location, Link, ETag, Tasklane-Seq, Idempotent-Replayed, Retry-After, X-RateLimit-*', () => {
    const headers = (doc: OpenApiDocument, id: string, status: string) =>
      Object.keys(operation(doc, id).responses[status]?.headers ?? {})
    const plain = document('by default')
    expect(headers(plain, 'createTask', '201')).toEqual([
      'Location',
      'ETag',
      'Tasklane-Seq',
      'Idempotent-Replayed',
    ])
    expect(headers(plain, 'getTasks', '200')).toEqual(['Link', 'Tasklane-Seq'])
    expect(headers(plain, 'getTask', '200')).toEqual(['ETag', 'Tasklane-Seq'])
    expect(headers(plain, 'getTask', '304')).toEqual(['ETag', 'Tasklane-Seq'])
    expect(headers(plain, 'updateTask', '200')).toEqual([
      'ETag',
      'Tasklane-Seq',
      'Idempotent-Replayed',
    ])
    expect(headers(plain, 'deleteTask', '204')).toEqual(['Tasklane-Seq', 'Idempotent-Replayed'])
    expect(headers(plain, 'getTask', '503')).toEqual(['Retry-After'])
    const limited = document('with an API token and a rate limit')
    const rateLimit = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']
    expect(headers(limited, 'getTasks', '200')).toEqual(['Link', 'Tasklane-Seq', ...rateLimit])
    expect(headers(limited, 'getTask', '429')).toEqual(['Retry-After', ...rateLimit])
    expect(headers(limited, 'getTask', '401')).toEqual(['WWW-Authenticate'])
  })
})
