// `tasklane webhooks` against a real server that delivers to a real receiver on 127.0.0.1
// (listed in WEBHOOK_ALLOWED_HOSTS), and `--list` by a list's name (webhooks create, move).
import { randomBytes } from 'node:crypto'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import {
  createClient,
  type TasklaneClient,
  type Webhook,
  type WebhookDelivery,
} from '@tasklane/client'
import { startServer, type TasklaneServer } from '@tasklane/testing/server'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { tasklane, tasklaneInProcess } from './support/cli.js'

const API_TOKEN = `admin-${randomBytes(16).toString('hex')}`
const WAIT = { timeout: 15_000, interval: 50 }

/** The bodies the receiver got, each acknowledged with a 204. */
const received: string[] = []
const receiver = createServer((request, response) => {
  const chunks: Buffer[] = []
  request.on('data', (chunk: Buffer) => chunks.push(chunk))
  request.on('end', () => {
    received.push(Buffer.concat(chunks).toString('utf8'))
    response.writeHead(204).end()
  })
})

let server: TasklaneServer
let client: TasklaneClient
let env: { TASKLANE_URL: string; TASKLANE_TOKEN: string }
/** The receiver's URL, under a path of the test's. */
let hookUrl: (path: string) => string

beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  const { port } = receiver.address() as AddressInfo
  hookUrl = (path) => `http://127.0.0.1:${port}/${path}`
  server = await startServer({
    apiToken: API_TOKEN,
    env: { WEBHOOK_ALLOWED_HOSTS: `127.0.0.1:${port}` },
  })
  client = createClient({ baseUrl: server.url, token: API_TOKEN })
  env = { TASKLANE_URL: server.url, TASKLANE_TOKEN: API_TOKEN }
})
afterAll(async () => {
  await server?.close()
  receiver.closeAllConnections()
  await new Promise((resolve) => receiver.close(resolve))
})

const cli = (...args: string[]) => tasklaneInProcess(args, env)

/** Runs tasklane with --json and parses what it printed, which must be a success. */
async function json<T>(...args: string[]): Promise<T> {
  const result = await cli(...args, '--json')
  expect(result).toMatchObject({ status: 0, stderr: '' })
  return JSON.parse(result.stdout) as T
}

/** The webhook of this URL, as the server has it. */
async function hookOf(url: string): Promise<Webhook> {
  const hook = (await client.listWebhooks()).find((webhook) => webhook.url === url)
  if (hook === undefined) throw new Error(`no webhook of ${url}`)
  return hook
}

describe('tasklane webhooks', () => {
  it('creates a webhook and prints its secret once; ls lists it; deliveries shows an attempt; rm deletes it', async () => {
    const list = await client.createList({ name: `Hooked ${randomBytes(4).toString('hex')}` })
    const url = hookUrl('table')
    const created = await cli(
      'webhooks',
      'create',
      url,
      '--list',
      list.name,
      '--type',
      'task.created',
    )
    expect(created.status).toBe(0)
    expect(created.stderr).toBe('')
    const hook = await hookOf(url)
    expect(hook).toMatchObject({ lists: [list.id], types: ['task.created'], enabled: true })
    const lines = created.stdout.split('\n')
    expect(lines[0]).toMatch(/^ID\s+STATUS\s+ENABLED\s+CURSOR\s+URL\s+LISTS\s+TYPES$/)
    expect(lines[1]).toMatch(
      new RegExp(
        `^ *${hook.id}\\s+active\\s+yes\\s+${hook.cursor}\\s+${url}\\s+${list.id}\\s+task\\.created$`,
      ),
    )
    const secrets = created.stdout.match(/whsec_[A-Za-z0-9+/=]+/g) ?? []
    expect(secrets).toHaveLength(1)
    expect(created.stdout).toContain(`\nSecret: ${secrets[0]}\n`)
    expect(created.stdout).toContain('This secret is shown only this once')

    // ls: the same row, and never the secret.
    const listed = await cli('webhooks', 'ls')
    expect(listed).toMatchObject({ status: 0, stderr: '' })
    expect(listed.stdout).toMatch(/^ID\s+STATUS\s+ENABLED\s+CURSOR\s+URL\s+LISTS\s+TYPES\n/)
    expect(listed.stdout).toContain(lines[1])
    expect(listed.stdout).not.toContain('whsec_')
    expect(await json<Webhook[]>('webhooks', 'ls')).toEqual(await client.listWebhooks())

    // A task created in the list is delivered; deliveries shows the attempt.
    expect(await json<WebhookDelivery[]>('webhooks', 'deliveries', String(hook.id))).toEqual([])
    expect((await cli('webhooks', 'deliveries', String(hook.id))).stdout).toBe(
      'No deliveries yet.\n',
    )
    const before = received.length
    await client.createTask({ name: 'Delivered', listId: list.id })
    await client.createTask({ name: 'Elsewhere' }) // not in the list: not delivered
    await vi.waitFor(
      async () => expect(await client.listWebhookDeliveries(hook.id)).toHaveLength(1),
      WAIT,
    )
    const [attempt] = await json<WebhookDelivery[]>('webhooks', 'deliveries', String(hook.id))
    expect(attempt).toMatchObject({ status: 204, error: null, seq: expect.any(Number) })
    expect(received.slice(before).map((body) => JSON.parse(body).data.name)).toEqual(['Delivered'])
    const table = await cli('webhooks', 'deliveries', String(hook.id))
    expect(table).toMatchObject({ status: 0, stderr: '' })
    const { seq, durationMs, at } = attempt as WebhookDelivery
    expect(table.stdout).toMatch(
      new RegExp(`^SEQ +STATUS +MS +AT +ERROR\n *${seq} +204 +${durationMs} +${at}\n$`),
    )

    expect(await cli('webhooks', 'rm', String(hook.id))).toEqual({
      status: 0,
      stdout: `Deleted webhook ${hook.id}.\n`,
      stderr: '',
    })
    expect((await client.listWebhooks()).map(({ id }) => id)).not.toContain(hook.id)
    const again = await cli('webhooks', 'rm', String(hook.id))
    expect(again.status).toBe(1)
    expect(again.stdout).toBe('')
    expect(again.stderr).toMatch(
      new RegExp(`^tasklane: Webhook ${hook.id} does not exist\\. \\(HTTP 404 from DELETE `),
    )
  })

  it('prints the created webhook as JSON with --json, its secret included', async () => {
    const url = hookUrl('json')
    const created = await json<Webhook & { secret: string }>(
      'webhooks',
      'create',
      url,
      '--after',
      '0',
    )
    expect(created).toMatchObject({ url, status: 'active', cursor: 0, types: expect.any(Array) })
    expect(created.secret).toMatch(/^whsec_/)
    expect(created).not.toHaveProperty('lists')
    await client.deleteWebhook(created.id)
  })

  it("refuses a private address with the server's message: exit 1", async () => {
    const refused = await tasklane(['webhooks', 'create', 'http://10.0.0.1/hook'], env)
    expect(refused.status).toBe(1)
    expect(refused.stdout).toBe('')
    expect(refused.stderr).toMatch(
      /^tasklane: url must not .* \(HTTP 400 from POST http:\/\/127\.0\.0\.1:\d+\/webhooks;/,
    )
  })

  it('refuses what the command line gets wrong: exit 2', async () => {
    expect(await cli('webhooks')).toEqual({
      status: 2,
      stdout: '',
      stderr: "tasklane: Missing webhooks command. See 'tasklane webhooks --help'.\n",
    })
    expect((await cli('webhooks', 'purge')).stderr).toBe(
      "tasklane: Unknown webhooks command 'purge'. See 'tasklane webhooks --help'.\n",
    )
    expect(await cli('webhooks', 'create', hookUrl('x'), '--type', 'task.moved')).toEqual({
      status: 2,
      stdout: '',
      stderr:
        "tasklane: --type must be 'task.created', 'task.updated' or 'task.deleted', got 'task.moved'. See 'tasklane webhooks create --help'.\n",
    })
    expect((await cli('webhooks', 'rm')).stderr).toBe(
      "tasklane: Missing <id>. See 'tasklane webhooks rm --help'.\n",
    )
  })

  it('explains itself in the help', async () => {
    const main = await cli('--help')
    expect(main.stdout).toMatch(/\n {2}webhooks +Make, list and delete webhooks/)
    const group = await cli('webhooks', '--help')
    expect(group.status).toBe(0)
    expect(group.stdout).toMatch(/^Usage: tasklane webhooks <command> \[options\]\n/)
    for (const name of ['create', 'ls', 'rm', 'deliveries']) {
      expect(group.stdout).toMatch(new RegExp(`\\n {2}webhooks ${name} +\\S`))
    }
    expect((await cli('webhooks', 'create', '--help')).stdout).toMatch(
      /^Usage: tasklane webhooks create <url> \[--list LIST\]… \[--type TYPE\]… \[--after SEQ\] \[--json\] \[--url URL\]\n/,
    )
    expect((await cli('help', 'webhooks', 'deliveries')).stdout).toMatch(
      /^Usage: tasklane webhooks deliveries <id> \[--json\] \[--url URL\]\n/,
    )
  })
})

describe('--list by id or name', () => {
  it('takes several lists, by name and by id, on webhooks create', async () => {
    const a = await client.createList({ name: `Alpha ${randomBytes(4).toString('hex')}` })
    const b = await client.createList({ name: `Beta ${randomBytes(4).toString('hex')}` })
    const created = await json<Webhook>(
      'webhooks',
      'create',
      hookUrl('lists'),
      '--list',
      a.name,
      '--list',
      String(b.id),
    )
    expect(created.lists).toEqual([a.id, b.id])
    await client.deleteWebhook(created.id)
  })

  it('refuses a name no list has, naming it: exit 2, nothing made', async () => {
    const result = await cli('webhooks', 'create', hookUrl('none'), '--list', 'No such list')
    expect(result).toEqual({
      status: 2,
      stdout: '',
      stderr: "tasklane: No list is named 'No such list'. See 'tasklane webhooks create --help'.\n",
    })
    expect((await client.listWebhooks()).map(({ url }) => url)).not.toContain(hookUrl('none'))
  })

  it('refuses a name several lists have, listing their ids', async () => {
    const name = `Twin ${randomBytes(4).toString('hex')}`
    const one = await client.createList({ name })
    const two = await client.createList({ name })
    const result = await cli('webhooks', 'create', hookUrl('twin'), '--list', name)
    expect(result).toEqual({
      status: 2,
      stdout: '',
      stderr: `tasklane: 2 lists are named '${name}' (ids ${one.id}, ${two.id}): give its id. See 'tasklane webhooks create --help'.\n`,
    })
    const task = await client.createTask({ name: 'Stays', listId: one.id })
    expect((await cli('move', String(task.id), '--top', '--list', name)).status).toBe(2)
    expect((await client.getTask(task.id)).listId).toBe(one.id)
  })

  it('reads digits as an id, never a name: 0 is a usage error', async () => {
    expect(await cli('webhooks', 'create', hookUrl('zero'), '--list', '0')).toEqual({
      status: 2,
      stdout: '',
      stderr:
        "tasklane: --list must be a list's id (1 to 9007199254740991) or its name, got '0'. See 'tasklane webhooks create --help'.\n",
    })
    const missing = await cli('webhooks', 'create', hookUrl('missing'), '--list', '999999')
    expect(missing.status).toBe(1)
    expect(missing.stderr).toMatch(/^tasklane: .*999999.* \(HTTP 4\d\d from POST /)
  })

  it('moves a task into a list named by --list', async () => {
    const from = await client.createList({ name: `From ${randomBytes(4).toString('hex')}` })
    const into = await client.createList({ name: `Into ${randomBytes(4).toString('hex')}` })
    const task = await client.createTask({ name: 'Moving', listId: from.id })
    const moved = await json<{ id: number; listId: number }>(
      'move',
      String(task.id),
      '--top',
      '--list',
      into.name,
    )
    expect(moved).toMatchObject({ id: task.id, listId: into.id })
    // An id still reads as an id.
    const back = await json<{ listId: number }>(
      'move',
      String(task.id),
      '--top',
      '--list',
      String(from.id),
    )
    expect(back.listId).toBe(from.id)
  })
})
