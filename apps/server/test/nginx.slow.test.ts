import { type ChildProcess, spawn } from 'node:child_process'
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Task } from '@tasklane/contract'
import { freePort } from '@tasklane/testing/launch'
import { commandExists, systemHas } from '@tasklane/testing/requirements'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { subscribe } from './support/events.js'
import { expectError } from './support/http.js'
import { type ServerProcess, startServerProcess } from './support/processes.js'
import { createTestDatabase, onPostgres, type TestDatabase } from './support/test-database.js'

type Instance = ServerProcess

/** Requests a minute each instance takes from one client. */
const RATE_LIMIT = 50

const CONFIG = join(import.meta.dirname, '../../../deploy/nginx.conf')

// Without nginx: skipped with one loud line, or a failure under TASKLANE_REQUIRE_ALL=1.
const runs =
  onPostgres &&
  systemHas('nginx', commandExists('nginx'), 'apt-get install nginx (bash .ci/run does)')

/** deploy/nginx.conf with its upstream ports and listen port replaced. */
async function configFor(ports: number[], listen: number): Promise<string> {
  let text = await readFile(CONFIG, 'utf8')
  const upstreams = text.match(/server 127\.0\.0\.1:300\d/g) ?? []
  expect(upstreams).toHaveLength(ports.length)
  ports.forEach((port, i) => {
    text = text.replace(`server 127.0.0.1:${3001 + i}`, `server 127.0.0.1:${port}`)
  })
  expect(text).toContain('listen 127.0.0.1:8080;')
  return text.replace('listen 127.0.0.1:8080;', `listen 127.0.0.1:${listen};`)
}

/** The status of GET `url` sent from the local address `from` (another client: 127.0.0.2). */
function statusFrom(url: string, from: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { localAddress: from, agent: false }, (response) => {
      response.resume()
      response.on('end', () => resolve(response.statusCode ?? 0))
    })
    req.on('error', reject)
    req.end()
  })
}

/** How many requests an instance logged for `method url`. */
function served(instance: Instance, method: string, url: string): number {
  return instance.lines.filter((line) => {
    try {
      const entry = JSON.parse(line) as { msg?: string; method?: string; url?: string }
      return entry.msg === 'request' && entry.method === method && entry.url === url
    } catch {
      return false
    }
  }).length
}

describe.runIf(runs)('three instances behind nginx (deploy/nginx.conf)', () => {
  let testDatabase: TestDatabase
  let instances: Instance[]
  let nginx: ChildProcess
  let prefix: string
  let base: string
  const nginxOutput: string[] = []

  beforeAll(async () => {
    testDatabase = await createTestDatabase({ kind: 'postgres' })
    instances = await Promise.all(
      [1, 2, 3].map(() =>
        startServerProcess({
          DATABASE_URL: testDatabase.url,
          DATABASE_POOL_SIZE: '3',
          // nginx, on this machine, says who the client is (X-Forwarded-For).
          TRUST_PROXY: 'loopback',
          RATE_LIMIT: String(RATE_LIMIT),
        }),
      ),
    )
    prefix = await mkdtemp(join(tmpdir(), 'tasklane-nginx-'))
    // nginx's workers run as an unprivileged user when the master is root.
    await chmod(prefix, 0o755)
    const port = await freePort()
    const ports = instances.map((instance) => Number(new URL(instance.url).port))
    await writeFile(join(prefix, 'nginx.conf'), await configFor(ports, port))
    nginx = spawn('nginx', ['-p', prefix, '-c', join(prefix, 'nginx.conf'), '-e', 'stderr'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    for (const stream of [nginx.stdout, nginx.stderr]) {
      stream?.setEncoding('utf8').on('data', (chunk: string) => nginxOutput.push(chunk))
    }
    base = `http://127.0.0.1:${port}`
    const deadline = Date.now() + 10_000
    for (;;) {
      const up = await fetch(`${base}/health/live`).then(
        (response) => response.ok,
        () => false,
      )
      if (up) break
      if (Date.now() > deadline || nginx.exitCode !== null) {
        throw new Error(`nginx did not start:\n${nginxOutput.join('')}`)
      }
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }, 30_000)

  afterAll(async () => {
    if (nginx && nginx.exitCode === null) {
      const exited = new Promise((resolve) => nginx.once('exit', resolve))
      nginx.kill('SIGQUIT')
      await exited
    }
    await Promise.all((instances ?? []).map((instance) => instance.stop()))
    await testDatabase?.drop()
    if (prefix) await rm(prefix, { recursive: true, force: true })
  })

  it('spreads concurrent creates over every instance, and all of them see every task', async () => {
    const responses = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        fetch(`${base}/task`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name: `via nginx ${i}` }),
        }),
      ),
    )
    expect(responses.map((response) => response.status)).toEqual(Array(60).fill(201))
    const created = await Promise.all(responses.map((response) => response.json() as Promise<Task>))
    for (const instance of instances) expect(served(instance, 'POST', '/task')).toBeGreaterThan(0)

    const viaNginx = (await (await fetch(`${base}/tasks`)).json()) as Task[]
    expect(viaNginx.map((task) => task.id)).toEqual(
      created.map((task) => task.id).sort((a, b) => a - b),
    )
    for (const instance of instances) {
      expect(await (await fetch(`${instance.url}/tasks`)).json()).toEqual(viaNginx)
    }
  })

  it('passes the API through unchanged: Location, Link, and error bodies', async () => {
    const created = await fetch(`${base}/task`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'headers', tag: 'h' }),
    })
    expect(created.status).toBe(201)
    const task = (await created.json()) as Task
    expect(created.headers.get('location')).toBe(`/tasks/${task.id}`)
    const page = await fetch(`${base}/tasks?limit=2`)
    expect(page.headers.get('link')).toMatch(/^<\/tasks\?limit=2&after=\d+>; rel="next"$/)
    await expectError(await fetch(`${base}/tasks?limt=5`), 400, 'Unknown query parameter "limt".')
  })

  it('passes the change feed through unbuffered: each task within 1 s of its 201', async () => {
    const feed = await subscribe({ url: base })
    try {
      expect(feed.response.statusCode).toBe(200)
      expect(feed.response.headers['content-type']).toBe('text/event-stream')
      for (let i = 0; i < 3; i++) {
        const response = await fetch(`${base}/task`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name: `fed through nginx ${i}` }),
        })
        const task = (await response.json()) as Task
        await feed.untilTasks(i + 1, 1_000)
        expect(feed.tasks[i]).toEqual(task)
      }
    } finally {
      feed.close()
    }
  })

  it('gives every client its own rate-limit bucket (the instances trust nginx)', async () => {
    // Until every instance has refused 127.0.0.2 (nginx takes turns among idle instances).
    let refusedInARow = 0
    for (let i = 0; i < 4 * RATE_LIMIT && refusedInARow < 3; i++) {
      const status = await statusFrom(`${base}/tasks?limit=1`, '127.0.0.2')
      refusedInARow = status === 429 ? refusedInARow + 1 : 0
    }
    expect(refusedInARow).toBe(3)
    // Another client, on every instance in turn: its own bucket is full.
    const other = []
    for (let i = 0; i < 3; i++) other.push(await statusFrom(`${base}/tasks?limit=1`, '127.0.0.3'))
    expect(other).toEqual([200, 200, 200])
    const logged = instances.flatMap((instance) => instance.lines).join('\n')
    expect(logged).toContain('"client":"127.0.0.2"')
  })

  it('keeps serving, reads and creates alike, when an instance stops', async () => {
    await (instances[0] as Instance).stop()
    for (let i = 0; i < 6; i++) {
      const response = await fetch(`${base}/task`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: `after one stopped ${i}` }),
      })
      expect(response.status).toBe(201)
      expect((await fetch(`${base}/tasks?limit=1`)).status).toBe(200)
    }
  })

  it('answers 503 in the Error shape when no instance is left', async () => {
    await Promise.all(instances.map((instance) => instance.stop()))
    const response = await fetch(`${base}/tasks`)
    await expectError(response, 503, 'The service is unavailable; retry the request shortly.')
    expect(response.headers.get('retry-after')).toBe('1')
  })
})
