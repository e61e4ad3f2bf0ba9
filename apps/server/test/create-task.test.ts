import { request as httpRequest } from 'node:http'
import type { Task } from '@tasklane/contract'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createTask,
  expectError,
  get,
  jsonBody,
  postJson,
  postRaw,
  startServer,
  type TestServer,
} from './helpers.js'

let server: TestServer

beforeAll(async () => {
  server = await startServer()
})

afterAll(async () => {
  await server?.close()
})

/** Sends a raw HTTP request (no automatic headers) and returns status, headers and body. */
function rawPost(
  headers: Record<string, string | number>,
  body?: string,
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port: server.port, method: 'POST', path: '/task', headers },
      (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => {
          text += chunk
        })
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }),
        )
      },
    )
    req.on('error', reject)
    if (body !== undefined) req.write(body)
    req.end()
  })
}

const NAME_ERRORS = {
  tooLong: 'Field "name" must be at most 200 characters long.',
  empty: 'Field "name" must be at least 1 character long.',
  blank: 'Field "name" must contain at least one non-whitespace character.',
  nul: 'Field "name" must not contain the NUL character (U+0000).',
  surrogate: 'Field "name" must not contain an unpaired surrogate.',
}

describe('POST /task', () => {
  describe('on success', () => {
    it('returns 201 with the task, its id and a Location header', async () => {
      const response = await postJson(server, { name: 'Write docs', tag: 'docs' })
      expect(response.status).toBe(201)
      const task = await jsonBody<Task>(response)
      expect(task).toEqual({ id: expect.any(Number), name: 'Write docs', tag: 'docs' })
      expect(Number.isSafeInteger(task.id)).toBe(true)
      expect(task.id).toBeGreaterThanOrEqual(1)
      expect(response.headers.get('location')).toBe(`/tasks/${task.id}`)
    })

    it('returns the id as a JSON number, never a string', async () => {
      const response = await postJson(server, { name: 'number id' })
      const text = await response.text()
      expect(text).toMatch(/"id":\d+[,}]/)
    })

    it('stores the task so GET /tasks/{id} returns it', async () => {
      const created = await createTask(server, { name: 'persisted', tag: 'p' })
      const response = await get(server, `/tasks/${created.id}`)
      expect(response.status).toBe(200)
      expect(await response.json()).toEqual(created)
    })

    it('assigns strictly increasing ids', async () => {
      const ids: number[] = []
      for (let i = 0; i < 5; i++) ids.push((await createTask(server, { name: `seq ${i}` })).id)
      for (let i = 1; i < ids.length; i++) {
        expect(ids[i]).toBeGreaterThan(ids[i - 1] as number)
      }
    })

    it('assigns distinct increasing ids to concurrent creations', async () => {
      const tasks = await Promise.all(
        Array.from({ length: 20 }, (_, i) => createTask(server, { name: `concurrent ${i}` })),
      )
      const ids = tasks.map((task) => task.id)
      expect(new Set(ids).size).toBe(20)
      const response = await get(server, '/tasks')
      const listed = ((await response.json()) as Task[]).map((task) => task.id)
      expect(listed).toEqual([...listed].sort((a, b) => a - b))
      for (const id of ids) expect(listed).toContain(id)
    })

    it('omits the tag key when no tag is given (not null)', async () => {
      const response = await postJson(server, { name: 'untagged' })
      expect(response.status).toBe(201)
      const task = (await response.json()) as Record<string, unknown>
      expect(Object.keys(task).sort()).toEqual(['id', 'name'])
      const read = (await (await get(server, `/tasks/${task.id}`)).json()) as Record<
        string,
        unknown
      >
      expect('tag' in read).toBe(false)
      expect(read).toEqual({ id: task.id, name: 'untagged' })
    })

    it('accepts Content-Type: application/json; charset=utf-8', async () => {
      const response = await postRaw(
        server,
        JSON.stringify({ name: 'with charset' }),
        'application/json; charset=utf-8',
      )
      expect(response.status).toBe(201)
      expect(await response.json()).toMatchObject({ name: 'with charset' })
    })
  })

  describe('field rules', () => {
    it('accepts a name of 200 emoji (counted in code points)', async () => {
      const name = '😀'.repeat(200)
      const task = await createTask(server, { name })
      expect(task.name).toBe(name)
    })

    it('returns 400 for a name of 201 emoji', async () => {
      await expectError(
        await postJson(server, { name: '😀'.repeat(201) }),
        400,
        NAME_ERRORS.tooLong,
      )
    })

    it('accepts a name of 200 ASCII characters', async () => {
      const name = 'x'.repeat(200)
      expect((await createTask(server, { name })).name).toBe(name)
    })

    it('returns 400 for a name of 201 ASCII characters', async () => {
      await expectError(await postJson(server, { name: 'x'.repeat(201) }), 400, NAME_ERRORS.tooLong)
    })

    it('accepts a tag of 64 emoji', async () => {
      const tag = '🎉'.repeat(64)
      expect((await createTask(server, { name: 'tagged', tag })).tag).toBe(tag)
    })

    it('returns 400 for a tag of 65 emoji', async () => {
      await expectError(
        await postJson(server, { name: 'tagged', tag: '🎉'.repeat(65) }),
        400,
        'Field "tag" must be at most 64 characters long.',
      )
    })

    it('returns 400 for a tag of 65 ASCII characters', async () => {
      await expectError(
        await postJson(server, { name: 'tagged', tag: 't'.repeat(65) }),
        400,
        'Field "tag" must be at most 64 characters long.',
      )
    })

    it('returns 400 when name is missing', async () => {
      await expectError(await postJson(server, { tag: 'x' }), 400, 'Field "name" is required.')
    })

    it('returns 400 for an empty name', async () => {
      await expectError(await postJson(server, { name: '' }), 400, NAME_ERRORS.empty)
    })

    it('returns 400 for a blank name (only whitespace)', async () => {
      await expectError(await postJson(server, { name: ' \t\n ' }), 400, NAME_ERRORS.blank)
    })

    it('returns 400 for an empty tag', async () => {
      await expectError(
        await postJson(server, { name: 'a', tag: '' }),
        400,
        'Field "tag" must be at least 1 character long.',
      )
    })

    it('returns 400 for a blank tag', async () => {
      await expectError(
        await postJson(server, { name: 'a', tag: '   ' }),
        400,
        'Field "tag" must contain at least one non-whitespace character.',
      )
    })

    it('returns 400 for a name containing U+0000', async () => {
      await expectError(await postRaw(server, '{"name":"a\\u0000b"}'), 400, NAME_ERRORS.nul)
    })

    it('returns 400 for a tag containing U+0000', async () => {
      await expectError(
        await postRaw(server, '{"name":"a","tag":"\\u0000"}'),
        400,
        'Field "tag" must not contain the NUL character (U+0000).',
      )
    })

    it('returns 400 for a name with a lone high surrogate sent as raw JSON text', async () => {
      await expectError(await postRaw(server, '{"name":"a\\ud800"}'), 400, NAME_ERRORS.surrogate)
    })

    it('returns 400 for a name with a lone low surrogate sent as raw JSON text', async () => {
      await expectError(await postRaw(server, '{"name":"\\udc00a"}'), 400, NAME_ERRORS.surrogate)
    })

    it('returns 400 for a tag with a lone surrogate sent as raw JSON text', async () => {
      await expectError(
        await postRaw(server, '{"name":"a","tag":"x\\udbff"}'),
        400,
        'Field "tag" must not contain an unpaired surrogate.',
      )
    })

    it('stores nothing when a field is rejected', async () => {
      const before = ((await (await get(server, '/tasks')).json()) as Task[]).length
      await postRaw(server, '{"name":"a\\ud800"}')
      await postJson(server, { name: '' })
      await postJson(server, { name: 'a', id: 1 })
      const after = ((await (await get(server, '/tasks')).json()) as Task[]).length
      expect(after).toBe(before)
    })

    it.each([
      ['emoji', '🚀 Launch 👩‍💻 day 🇫🇷'],
      ['CJK', '写文档 タスク 작업'],
      ['RTL text', 'مهمة جديدة עבודה'],
      ['newlines and tabs', 'line 1\nline 2\r\n\tindented'],
      ['combining characters', 'e\u0301 n\u0303'],
      ['quotes and backslashes', 'say "hi" \\ and </script>'],
      ['surrounding whitespace', '  padded  '],
    ])('round-trips a name with %s exactly', async (_label, name) => {
      const created = await createTask(server, { name, tag: name.slice(0, 10) })
      expect(created.name).toBe(name)
      expect(created.tag).toBe(name.slice(0, 10))
      const read = (await (await get(server, `/tasks/${created.id}`)).json()) as Task
      expect(read).toEqual({ id: created.id, name, tag: name.slice(0, 10) })
      const listed = (await (
        await get(server, `/tasks?after=${created.id - 1}&limit=1`)
      ).json()) as Task[]
      expect(listed).toEqual([{ id: created.id, name, tag: name.slice(0, 10) }])
    })

    it('returns 400 for "tag": null', async () => {
      await expectError(
        await postJson(server, { name: 'a', tag: null }),
        400,
        'Field "tag" must be a string.',
      )
    })

    it('returns 400 for a number name instead of coercing it', async () => {
      await expectError(
        await postJson(server, { name: 123 }),
        400,
        'Field "name" must be a string.',
      )
    })

    it('returns 400 for a boolean tag', async () => {
      await expectError(
        await postJson(server, { name: 'a', tag: true }),
        400,
        'Field "tag" must be a string.',
      )
    })

    it.each(['id', 'tags', 'done'])('returns 400 naming an extra property "%s"', async (key) => {
      await expectError(
        await postJson(server, { name: 'a', [key]: 1 }),
        400,
        `Field "${key}" is not allowed; a task has only "name" and an optional "tag".`,
      )
    })
  })

  describe('body and content type', () => {
    it('returns 415 for Content-Type: text/plain', async () => {
      await expectError(
        await postRaw(server, JSON.stringify({ name: 'a' }), 'text/plain'),
        415,
        'Content-Type must be application/json.',
      )
    })

    it('returns 415 for Content-Type: application/x-www-form-urlencoded', async () => {
      await expectError(
        await postRaw(server, 'name=a', 'application/x-www-form-urlencoded'),
        415,
        'Content-Type must be application/json.',
      )
    })

    it('returns 415 when Content-Type is missing and a body is sent', async () => {
      const body = JSON.stringify({ name: 'a' })
      const response = await rawPost({ 'content-length': Buffer.byteLength(body) }, body)
      expect(response.status).toBe(415)
      expect(response.headers['content-type']).toMatch(/^application\/json/)
      expect(JSON.parse(response.body)).toEqual({
        code: 415,
        message: 'Content-Type must be application/json.',
      })
    })

    it('returns 415 when Content-Type is missing and there is no body', async () => {
      const response = await rawPost({ 'content-length': 0 })
      expect(response.status).toBe(415)
      expect(response.headers['content-type']).toMatch(/^application\/json/)
      expect(JSON.parse(response.body)).toEqual({
        code: 415,
        message: 'Content-Type must be application/json.',
      })
    })

    it('returns 400 for an empty body', async () => {
      await expectError(
        await postRaw(server, ''),
        400,
        'The request body is empty; send a JSON object.',
      )
    })

    it('returns 400 for malformed JSON', async () => {
      await expectError(
        await postRaw(server, '{"name": "a"'),
        400,
        'The request body is not valid JSON.',
      )
    })

    it.each([
      ['a JSON array', '[{"name":"a"}]'],
      ['a JSON string', '"a"'],
      ['JSON null', 'null'],
      ['a JSON number', '42'],
    ])('returns 400 for %s as the body', async (_label, body) => {
      await expectError(await postRaw(server, body), 400, 'The request body must be a JSON object.')
    })

    it('returns 400 for a body with a "__proto__" key', async () => {
      await expectError(
        await postRaw(server, '{"name":"a","__proto__":{"tag":"polluted"}}'),
        400,
        'The request body must not contain "__proto__" or "constructor.prototype" keys.',
      )
    })

    it('returns 400 for a body with a "constructor.prototype" key', async () => {
      await expectError(
        await postRaw(server, '{"name":"a","constructor":{"prototype":{"x":1}}}'),
        400,
        'The request body must not contain "__proto__" or "constructor.prototype" keys.',
      )
    })

    it('returns 413 for a body over 64 KiB', async () => {
      const body = JSON.stringify({ name: 'a', tag: 'x'.repeat(64 * 1024) })
      await expectError(
        await postRaw(server, body),
        413,
        'The request body is larger than 65536 bytes.',
      )
    })

    it('returns 413 for a chunked body over 64 KiB without Content-Length', async () => {
      const body = JSON.stringify({ name: 'a', tag: 'x'.repeat(70 * 1024) })
      const response = await rawPost(
        { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
        body,
      )
      expect(response.status).toBe(413)
      expect(response.headers['content-type']).toMatch(/^application\/json/)
      expect(JSON.parse(response.body)).toEqual({
        code: 413,
        message: 'The request body is larger than 65536 bytes.',
      })
    })

    it('accepts a valid body just under 64 KiB in size (whitespace padded)', async () => {
      const json = JSON.stringify({ name: 'padded body' })
      const body = `${json}${' '.repeat(64 * 1024 - json.length)}`
      expect(Buffer.byteLength(body)).toBe(64 * 1024)
      const response = await postRaw(server, body)
      expect(response.status).toBe(201)
    })
  })
})
