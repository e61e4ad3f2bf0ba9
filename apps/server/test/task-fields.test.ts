import type { Task } from '@tasklane/contract'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { aTask, createTask, expectError, get, listAll, postJson, postRaw } from './support/http.js'
import { startServer, type TestServer } from './support/server.js'

let server: TestServer

beforeAll(async () => {
  server = await startServer()
})

afterAll(async () => {
  await server?.close()
})

const TOO_LONG = {
  name: 'Field "name" must be at most 200 characters long.',
  tag: 'Field "tag" must be at most 64 characters long.',
}

describe('POST /task: name and tag lengths, counted in code points', () => {
  it.each([
    ['a name of 200 emoji', { name: '😀'.repeat(200) }],
    ['a name of 200 ASCII characters', { name: 'x'.repeat(200) }],
    ['a tag of 64 emoji', { name: 'tagged', tag: '🎉'.repeat(64) }],
    ['a tag of 64 ASCII characters', { name: 'tagged', tag: 't'.repeat(64) }],
  ])('accepts %s', async (_, task) => {
    expect(await createTask(server, task)).toEqual(aTask(task))
  })

  it.each([
    ['a name of 201 emoji', { name: '😀'.repeat(201) }, TOO_LONG.name],
    ['a name of 201 ASCII characters', { name: 'x'.repeat(201) }, TOO_LONG.name],
    ['a tag of 65 emoji', { name: 'tagged', tag: '🎉'.repeat(65) }, TOO_LONG.tag],
    ['a tag of 65 ASCII characters', { name: 'tagged', tag: 't'.repeat(65) }, TOO_LONG.tag],
  ])('returns 400 for %s', async (_, task, message) => {
    await expectError(await postJson(server, task), 400, message)
  })
})

describe('POST /task: field rules', () => {
  it.each([
    ['name is missing', { tag: 'x' }, 'Field "name" is required.'],
    ['name is empty', { name: '' }, 'Field "name" must be at least 1 character long.'],
    [
      'name is only whitespace',
      { name: ' \t\n ' },
      'Field "name" must contain at least one non-whitespace character.',
    ],
    ['tag is empty', { name: 'a', tag: '' }, 'Field "tag" must be at least 1 character long.'],
    [
      'tag is only whitespace',
      { name: 'a', tag: '   ' },
      'Field "tag" must contain at least one non-whitespace character.',
    ],
    ['tag is null', { name: 'a', tag: null }, 'Field "tag" must be a string.'],
    ['name is a number (never coerced)', { name: 123 }, 'Field "name" must be a string.'],
    ['tag is a boolean', { name: 'a', tag: true }, 'Field "tag" must be a string.'],
  ])('returns 400 when %s', async (_, task, message) => {
    await expectError(await postJson(server, task), 400, message)
  })

  // Raw JSON text: JSON.stringify would not write these escapes as they stand.
  it.each([
    ['a name containing U+0000', '{"name":"a\\u0000b"}', 'name', 'NUL'],
    ['a tag containing U+0000', '{"name":"a","tag":"\\u0000"}', 'tag', 'NUL'],
    ['a name with a lone high surrogate', '{"name":"a\\ud800"}', 'name', 'surrogate'],
    ['a name with a lone low surrogate', '{"name":"\\udc00a"}', 'name', 'surrogate'],
    ['a tag with a lone surrogate', '{"name":"a","tag":"x\\udbff"}', 'tag', 'surrogate'],
  ])('returns 400 for %s', async (_, body, field, rule) => {
    await expectError(
      await postRaw(server, body),
      400,
      rule === 'NUL'
        ? `Field "${field}" must not contain the NUL character (U+0000).`
        : `Field "${field}" must not contain an unpaired surrogate.`,
    )
  })

  it.each(['id', 'tags', 'done'])('returns 400 naming an extra property "%s"', async (key) => {
    await expectError(
      await postJson(server, { name: 'a', [key]: 1 }),
      400,
      `Field "${key}" is not allowed; a NewTask has only "name", an optional "tag", an optional "status", an optional "listId", an optional "notes", an optional "due" and an optional "priority".`,
    )
  })

  it('stores nothing when a field is rejected', async () => {
    const before = (await listAll(server)).length
    await postRaw(server, '{"name":"a\\ud800"}')
    await postJson(server, { name: '' })
    await postJson(server, { name: 'a', id: 1 })
    expect((await listAll(server)).length).toBe(before)
  })
})

describe('POST /task: text is stored and returned exactly as sent', () => {
  it.each([
    ['emoji', '🚀 Launch 👩‍💻 day 🇫🇷'],
    ['CJK', '写文档 タスク 작업'],
    ['RTL text', 'مهمة جديدة עבודה'],
    ['newlines and tabs', 'line 1\nline 2\r\n\tindented'],
    ['combining characters', 'e\u0301 n\u0303'],
    ['quotes and backslashes', 'say "hi" \\ and </script>'],
    ['surrounding whitespace', '  padded  '],
  ])('round-trips a name and tag with %s', async (_, name) => {
    const expected = { name, tag: name.slice(0, 10) }
    const created = await createTask(server, expected)
    expect(created).toEqual(aTask({ id: created.id, ...expected }))
    expect(await (await get(server, `/tasks/${created.id}`)).json()).toEqual(created)
    const listed = (await (
      await get(server, `/tasks?after=${created.id - 1}&limit=1`)
    ).json()) as Task[]
    expect(listed).toEqual([created])
  })
})
