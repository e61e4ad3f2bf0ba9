import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { get, jsonBody } from './support/http.js'
import { startServer, type TestServer } from './support/server.js'

let server: TestServer

beforeAll(async () => {
  // These tests ask whether the database answers, not how fast: on a machine loaded with
  // other suites a probe commit has taken more than the default second. The 503 past the
  // timeout is tested with a storage that hangs (writer-thread, vanished-database).
  server = await startServer({ settings: { readyTimeoutMs: 10_000 } })
})

afterAll(async () => {
  await server?.close()
})

interface OpenApiDocument {
  openapi: string
  info: { title: string; version: string; contact?: object }
  tags: { name: string }[]
  paths: Record<
    string,
    Record<
      string,
      {
        operationId?: string
        description?: string
        tags?: string[]
        requestBody?: { content?: Record<string, { schema?: unknown }> }
        parameters?: { in: string; name: string }[]
        responses?: Record<
          string,
          {
            description?: string
            content?: Record<string, { schema?: { description?: string } }>
            links?: Record<
              string,
              { operationId: string; parameters: object; description?: string }
            >
          }
        >
      }
    >
  >
  components: { schemas: Record<string, unknown> }
}

describe('GET /openapi.json', () => {
  let document: OpenApiDocument

  beforeAll(async () => {
    const response = await get(server, '/openapi.json')
    expect(response.status).toBe(200)
    document = await jsonBody<OpenApiDocument>(response)
  })

  it('is an OpenAPI 3.1 document with version 1.0.0', () => {
    expect(document.openapi).toMatch(/^3\.1\.\d+$/)
    expect(document.info.version).toBe('1.0.0')
    expect(document.info.title).toBe('tasklane')
  })

  it('declares the operations getTasks, createTask, getTask, updateTask, deleteTask and watchTasks with their tags', () => {
    const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({
        path,
        method,
        operationId: operation.operationId,
        tags: operation.tags,
      })),
    )
    expect(operations).toEqual(
      expect.arrayContaining([
        { path: '/tasks', method: 'get', operationId: 'getTasks', tags: ['tasks'] },
        { path: '/task', method: 'post', operationId: 'createTask', tags: ['task'] },
        { path: '/tasks/{id}', method: 'get', operationId: 'getTask', tags: ['task'] },
        { path: '/tasks/{id}', method: 'patch', operationId: 'updateTask', tags: ['task'] },
        { path: '/tasks/{id}', method: 'delete', operationId: 'deleteTask', tags: ['task'] },
        { path: '/tasks/events', method: 'get', operationId: 'watchTasks', tags: ['tasks'] },
      ]),
    )
    expect(operations.map((operation) => operation.operationId).sort()).toEqual([
      'createList',
      'createTask',
      'createToken',
      'createWebhook',
      'deleteList',
      'deleteMember',
      'deleteTask',
      'deleteToken',
      'deleteWebhook',
      'getList',
      'getLists',
      'getMe',
      'getMembers',
      'getTask',
      'getTaskHistory',
      'getTasks',
      'getTokens',
      'getWebhook',
      'getWebhookDeliveries',
      'getWebhooks',
      'moveTask',
      'putMember',
      'updateList',
      'updateTask',
      'updateWebhook',
      'watchTasks',
    ])
  })

  it('documents GET /tasks/events as text/event-stream with its event format and resume header', () => {
    const operation = document.paths['/tasks/events']?.get
    const stream = operation?.responses?.['200']?.content?.['text/event-stream']
    expect(stream?.schema?.description).toContain(
      '"id: <seq>", "event: created|updated|deleted", "data: <Task JSON>" (for deleted: {"id","version"})',
    )
    // Each event's data as JSON Schema: a Task, or a DeletedTask.
    expect(JSON.stringify(stream?.schema)).toContain(
      '"contentSchema":{"anyOf":[{"$ref":"#/components/schemas/Task"},{"$ref":"#/components/schemas/DeletedTask"}]}',
    )
    expect(operation?.parameters?.map((p) => `${p.in} ${p.name}`).sort()).toEqual([
      'header last-event-id',
      'query after',
      'query dueFrom',
      'query dueTo',
      'query list',
      'query priority',
      'query status',
      'query tag',
      'query tz',
    ])
  })

  it('documents order, before and status on GET /tasks', () => {
    const names = document.paths['/tasks']?.get?.parameters?.map((p) => p.name)
    expect(names).toEqual([
      ...['limit', 'after', 'before', 'order', 'tag', 'status', 'list', 'sort', 'priority'],
      ...['dueFrom', 'dueTo', 'tz', 'overdue', 'q', 'cursor'],
    ])
  })

  it('documents If-Match and If-None-Match on GET /tasks/{id}, and If-Match and Idempotency-Key on PATCH and DELETE', () => {
    const headers = (method: string) =>
      document.paths['/tasks/{id}']?.[method]?.parameters
        ?.filter((p) => p.in === 'header')
        .map((p) => p.name)
    expect(headers('get')).toEqual(['if-match', 'if-none-match'])
    expect(headers('patch')).toEqual(['if-match', 'if-none-match', 'idempotency-key'])
    expect(headers('delete')).toEqual(['if-match', 'if-none-match', 'idempotency-key'])
  })

  it('says of PATCH that {} is a 400 and a patch equal to the task a 200 with the task unchanged', () => {
    const patch = document.paths['/tasks/{id}']?.patch
    expect(patch?.description).toContain(
      "A patch whose values equal the task's answers 200 with the task as it is (same version, same updatedAt, no event).",
    )
    expect(patch?.description).not.toContain('changes nothing')
    expect(patch?.responses?.['400']?.description).toBe(
      'The id, the patch (the message names the field), If-Match or the Idempotency-Key is not valid, or the patch is empty ({}); a patch equal to the task is no error (200).',
    )
  })

  it('takes a PATCH body as application/merge-patch+json or application/json', () => {
    const content = document.paths['/tasks/{id}']?.patch?.requestBody?.content ?? {}
    expect(Object.keys(content)).toEqual(['application/merge-patch+json', 'application/json'])
    for (const media of Object.values(content)) {
      expect(media.schema).toEqual({ $ref: '#/components/schemas/TaskPatch' })
    }
  })

  it('answers GET /tasks as a JSON array or as NDJSON, one Task a line', () => {
    const content = document.paths['/tasks']?.get?.responses?.['200']?.content ?? {}
    expect(Object.keys(content)).toEqual(['application/json', 'application/x-ndjson'])
    expect(content['application/json']?.schema).toMatchObject({
      type: 'array',
      items: { $ref: '#/components/schemas/Task' },
    })
    expect(content['application/x-ndjson']?.schema).toMatchObject({
      type: 'string',
      contentMediaType: 'application/x-ndjson',
      contentSchema: { type: 'array', items: { $ref: '#/components/schemas/Task' } },
    })
  })

  it('links a created task to reading, changing and deleting it by its id', () => {
    const links = document.paths['/task']?.post?.responses?.['201']?.links
    const byId = { id: '$response.body#/id' }
    expect(links).toEqual({
      GetTask: expect.objectContaining({ operationId: 'getTask', parameters: byId }),
      UpdateTask: expect.objectContaining({ operationId: 'updateTask', parameters: byId }),
      DeleteTask: expect.objectContaining({ operationId: 'deleteTask', parameters: byId }),
    })
    for (const link of Object.values(links ?? {})) expect(link.description).toMatch(/\w/)
  })

  it("links a listing's tasks to reading, changing and deleting them (by the first one's id)", () => {
    const links = document.paths['/tasks']?.get?.responses?.['200']?.links
    const byFirst = { id: '$response.body#/0/id' }
    expect(links).toEqual({
      GetTask: expect.objectContaining({ operationId: 'getTask', parameters: byFirst }),
      UpdateTask: expect.objectContaining({ operationId: 'updateTask', parameters: byFirst }),
      DeleteTask: expect.objectContaining({ operationId: 'deleteTask', parameters: byFirst }),
    })
  })

  it('describes every operation, and names a contact', () => {
    const operations = Object.values(document.paths).flatMap((methods) => Object.values(methods))
    expect(operations.filter((operation) => !operation.description)).toEqual([])
    expect(document.info.contact).toEqual({ name: expect.any(String), url: expect.any(String) })
  })

  it('declares the tags of tasks, lists, tokens and webhooks', () => {
    expect(document.tags.map((tag) => tag.name).sort()).toEqual([
      'list',
      'lists',
      'task',
      'tasks',
      'tokens',
      'webhooks',
    ])
  })

  it('names the component schemas of tasks, lists, members, tokens and errors, with no def- names', () => {
    const names = Object.keys(document.components.schemas)
    expect(names.sort()).toEqual([
      'CreatedToken',
      'CreatedWebhook',
      'DeletedTask',
      'Error',
      'HistoryEntry',
      'List',
      'ListPatch',
      'Me',
      'Member',
      'MemberRole',
      'MoveTask',
      'NewList',
      'NewTask',
      'NewToken',
      'NewWebhook',
      'Task',
      'TaskPatch',
      'Token',
      'Webhook',
      'WebhookDelivery',
      'WebhookPatch',
    ])
    expect(names.filter((name) => name.startsWith('def-'))).toEqual([])
    expect(JSON.stringify(document)).not.toContain('def-')
  })

  it('refers to the named schemas from the operations', () => {
    const text = JSON.stringify(document.paths)
    expect(text).toContain('"$ref":"#/components/schemas/Task"')
    expect(text).toContain('"$ref":"#/components/schemas/NewTask"')
    expect(text).toContain('"$ref":"#/components/schemas/TaskPatch"')
    expect(text).toContain('"$ref":"#/components/schemas/DeletedTask"')
    expect(text).toContain('"$ref":"#/components/schemas/Error"')
  })

  it('does not list the operational routes', () => {
    expect(Object.keys(document.paths).sort()).toEqual([
      '/list',
      '/lists',
      '/lists/{id}',
      '/lists/{id}/members',
      '/lists/{id}/members/{principal}',
      '/me',
      '/task',
      '/tasks',
      '/tasks/events',
      '/tasks/{id}',
      '/tasks/{id}/history',
      '/tasks/{id}/move',
      '/tokens',
      '/tokens/{id}',
      '/webhooks',
      '/webhooks/{id}',
      '/webhooks/{id}/deliveries',
    ])
  })
})

describe('GET /docs', () => {
  it('returns an HTML page', async () => {
    const response = await get(server, '/docs')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^text\/html/)
    expect(await response.text()).toMatch(/<html[\s>]/i)
  })
})

describe('health', () => {
  it('GET /health/live returns 200', async () => {
    const response = await get(server, '/health/live')
    expect(response.status).toBe(200)
    expect(await jsonBody(response)).toEqual({ status: 'ok' })
  })

  it.each(['/health/ready', '/health'])(
    'GET %s returns 200 when the database is reachable',
    async (path) => {
      const response = await get(server, path)
      expect(response.status).toBe(200)
      expect(await jsonBody(response)).toEqual({ status: 'ok' })
    },
  )
})
