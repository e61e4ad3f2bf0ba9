import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Task } from '@tasklane/contract'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTask, expectError, get, postRaw } from './support/http.js'
import { startServer, type TestServer } from './support/server.js'

let server: TestServer

beforeAll(async () => {
  server = await startServer()
})

afterAll(() => server?.close())

/** POST /task with these exact body bytes. */
const postBytes = (body: Buffer, contentType = 'application/json') =>
  fetch(`${server.url}/task`, { method: 'POST', headers: { 'content-type': contentType }, body })

describe('the encoding of a JSON body', () => {
  it('answers bytes that are not UTF-8 with 400, storing nothing', async () => {
    const body = Buffer.concat([
      Buffer.from('{"name":"caf'),
      Buffer.from([0xe9]),
      Buffer.from('"}'),
    ])
    await expectError(await postBytes(body), 400, 'The request body is not valid UTF-8.')
    expect(await (await get(server, '/tasks')).json()).toEqual([])
  })

  it.each(['latin1', 'ISO-8859-1', 'utf-16'])('answers charset=%s with 415', async (charset) => {
    await expectError(
      await postRaw(server, '{"name":"a"}', `application/json; charset=${charset}`),
      415,
      `The request body must be UTF-8 JSON; Content-Type names the charset "${charset.toLowerCase()}".`,
    )
  })

  it.each([
    'application/json; charset=utf-8',
    'application/json;charset="UTF-8"',
    'application/json',
  ])('takes %s', async (type) => {
    expect((await postRaw(server, '{"name":"€ and ✓"}', type)).status).toBe(201)
  })
})

describe('the encoding of the query string', () => {
  it.each([
    ['/tasks?tag=%FF', 'tag'],
    ['/tasks?tag=100%', 'tag'],
    ['/tasks?limit=1&tag=%C3', 'tag'],
  ])('answers %s with 400 naming the parameter', async (path, name) => {
    await expectError(
      await get(server, path),
      400,
      `Query parameter "${name}" is not valid percent-encoded UTF-8.`,
    )
  })

  it('takes a percent-encoded UTF-8 tag', async () => {
    await createTask(server, { name: 'euro', tag: '€' })
    const tasks = (await (await get(server, '/tasks?tag=%E2%82%AC')).json()) as Task[]
    expect(tasks.map((task) => task.name)).toEqual(['euro'])
  })
})

describe('names that show nothing, and names that reorder text', () => {
  it.each([
    ['zero-width spaces and joiners', '\u200B\u200C\u200D'],
    ['a word joiner and a byte order mark', '\u2060\uFEFF'],
    ['bidi controls and a space', '\u202E \u2066'],
  ])('refuses a name of only %s, saying so', async (_, name) => {
    await expectError(
      await postRaw(server, JSON.stringify({ name })),
      400,
      'Field "name" must contain at least one visible character, not only invisible ones such as U+200B.',
    )
  })

  it('stores a name with an RTL override exactly as sent (docs/api.md: names are stored as sent)', async () => {
    const name = 'invoice\u202Efdp.exe'
    const task = await createTask(server, { name })
    expect(task.name).toBe(name)
    expect(((await (await get(server, `/tasks/${task.id}`)).json()) as Task).name).toBe(name)
  })

  it('is shown bidi-isolated by the web page, so a name never reorders what stands beside it', () => {
    const css = readFileSync(join(import.meta.dirname, '../../web/src/style.css'), 'utf8')
    const rule = /\.task \.name \{([^}]*)\}/.exec(css)?.[1] ?? ''
    expect(rule).toMatch(/unicode-bidi: isolate;/)
  })
})
