import { readFile } from 'node:fs/promises'
import { createServer, request, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { CHROMIUM_LAUNCH, checkChromium } from '@tasklane/testing/chromium'
import { startServer } from '@tasklane/testing/server'
import { type Browser, chromium, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'

// Without it: skipped with one loud line, or a failure under TASKLANE_REQUIRE_ALL=1.
const hasChromium = checkChromium()

/** The page: imports the built ESM client and exposes one scenario to the test. */
const PAGE = `<!doctype html>
<meta charset="utf-8">
<title>tasklane client in a browser</title>
<script type="module">
  import { createClient, isApiError } from '/client/index.js'
  import { LiveTasks } from '/client/live.js'

  window.scenario = async (baseUrl) => {
    // Retries on: every create carries an Idempotency-Key, which the preflight must allow.
    const client = createClient({ baseUrl })
    const created = []
    for (const name of ['one', 'two 🚀', 'three']) {
      created.push(await client.createTask({ name, tag: 'browser' }))
    }
    const listed = await client.listTasks()
    const walked = []
    for await (const task of client.tasks({ tag: 'browser', pageSize: 2 })) walked.push(task)
    const missing = await client.getTask(424242).catch((error) => error)
    const page = await fetch(baseUrl + '/tasks?limit=1')
    return {
      link: page.headers.get('link'),
      created,
      listed,
      walked,
      missing: { apiError: isApiError(missing), status: missing.status, message: missing.message },
    }
  }

  // The change feed over fetch streaming: new tasks, then a clean end on abort.
  window.watching = async (baseUrl) => {
    const client = createClient({ baseUrl })
    const after = (await client.listTasks(1, { order: 'desc' }))[0]?.id ?? 0
    const stop = new AbortController()
    const seen = []
    const watched = (async () => {
      // This server has only seen creates: its newest seq is its newest id. (Across origins
      // the page cannot read the listing's Tasklane-Seq, which the server does not expose.)
      for await (const { task } of client.watch({ after, tag: 'live', signal: stop.signal })) {
        seen.push(task)
        if (seen.length === 2) stop.abort()
      }
    })()
    const created = [
      await client.createTask({ name: 'watched 1', tag: 'live' }),
      await client.createTask({ name: 'not watched' }),
      await client.createTask({ name: 'watched 2 🚀', tag: 'live' }),
    ]
    await watched
    const exported = []
    for await (const task of client.exportTasks({ tag: 'live', order: 'desc' })) exported.push(task)
    return { created, seen, exported }
  }

  // A live listing, on the page's own origin (the server does not expose Tasklane-Seq
  // across origins): it sees a new task, then the same task leave its view.
  window.living = async (baseUrl) => {
    const client = createClient({ baseUrl })
    const live = new LiveTasks(client, { status: 'open', order: 'desc', limit: 2 })
    // Checked at once too: the change may have been applied before the call returned.
    const when = (done) => new Promise((resolve) => {
      const check = () => { if (done() || live.closed) { off(); resolve() } }
      const off = live.subscribe(check)
      check()
    })
    const shown = []
    live.subscribe(() => shown.push(live.tasks.map((task) => task.name)))
    await when(() => live.caughtUp)
    const task = await client.createTask({ name: 'live in a browser 🚀' })
    await when(() => live.tasks.some((t) => t.id === task.id))
    await client.completeTask(task.id)
    await when(() => live.caughtUp && !live.tasks.some((t) => t.id === task.id))
    const error = live.error === undefined ? undefined : String(live.error)
    live.close()
    return { shown, closed: live.closed, caughtUp: live.caughtUp, error }
  }

  window.blocked = async (baseUrl) => {
    const client = createClient({ baseUrl, retry: false })
    return client.listTasks().then(
      () => 'no error',
      (error) => error.name,
    )
  }
  document.title = 'ready'
</script>`

/**
 * Serves the page and the built client (its entry points and the chunks they share) from its
 * own origin, and passes `/api/…` on to `api.url`, when set, as a same-origin API.
 */
async function servePage(api: { url?: string } = {}): Promise<{ server: Server; origin: string }> {
  const server = createServer(async (incoming, response) => {
    const file = /^\/client\/([\w.-]+\.js)$/.exec(incoming.url ?? '')?.[1]
    if (incoming.url === '/') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE)
    } else if (file !== undefined) {
      const code = await readFile(join(inject('clientPackage'), 'dist', file)).catch(() => null)
      if (code === null) response.writeHead(404).end()
      else response.writeHead(200, { 'content-type': 'text/javascript' }).end(code)
    } else if (api.url !== undefined && incoming.url?.startsWith('/api/')) {
      const forwarded = request(`${api.url}${incoming.url.slice(4)}`, {
        method: incoming.method,
        headers: incoming.headers,
      })
      forwarded.on('response', (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(response)
      })
      forwarded.on('error', () => response.destroy())
      incoming.pipe(forwarded)
    } else {
      response.writeHead(404).end()
    }
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }
}

let browser: Browser
let page: Page
let site: Awaited<ReturnType<typeof servePage>>
/** Where the page's own origin forwards `/api/…`. */
const sameOrigin: { url?: string } = {}

describe.runIf(hasChromium)(
  'the built client in Chromium, calling the server on another origin',
  {
    timeout: 60_000,
  },
  () => {
    beforeAll(async () => {
      site = await servePage(sameOrigin)
      browser = await chromium.launch(CHROMIUM_LAUNCH)
      page = await browser.newPage()
      await page.goto(`${site.origin}/`)
      await page.waitForFunction(() => document.title === 'ready')
    }, 60_000)

    afterAll(async () => {
      await browser?.close()
      site?.server.close()
    })

    it('creates, lists and pages through tasks when the server allows the page origin', async () => {
      const api = await startServer({ corsOrigins: [site.origin] })
      try {
        expect(new URL(api.url).origin).not.toBe(site.origin)
        const result = await page.evaluate((url) => window.scenario(url), api.url)
        expect(result.created.map((t) => t.name)).toEqual(['one', 'two 🚀', 'three'])
        expect(result.listed).toEqual(result.created)
        expect(result.walked).toEqual(result.created)
        // The page may read Link (Access-Control-Expose-Headers), so tasks() can follow it.
        expect(result.link).toBe(`</tasks?limit=1&after=${result.created[0]?.id}>; rel="next"`)
        expect(result.missing).toEqual({
          apiError: true,
          status: 404,
          message: 'Task 424242 does not exist.',
        })
      } finally {
        await api.close()
      }
    })

    it('watches new tasks over the change feed and exports over NDJSON, across origins', async () => {
      const api = await startServer({ corsOrigins: [site.origin] })
      try {
        const { created, seen, exported } = await page.evaluate(
          (url) => window.watching(url),
          api.url,
        )
        expect(seen).toEqual([created[0], created[2]])
        expect(exported).toEqual([created[2], created[0]])
      } finally {
        await api.close()
      }
    })

    it('keeps a live listing with @tasklane/client/live on the same origin', async () => {
      const api = await startServer()
      sameOrigin.url = api.url
      try {
        const result = await page.evaluate((url) => window.living(url), `${site.origin}/api`)
        expect(result.shown).toContainEqual(['live in a browser 🚀'])
        expect(result.shown.at(-1)).toEqual([])
        expect(result).toMatchObject({ error: undefined, closed: true, caughtUp: false })
      } finally {
        await api.close()
      }
    })

    it('fails with ConnectionError when the server does not allow the page origin', async () => {
      const api = await startServer({ corsOrigins: ['http://127.0.0.1:1'] })
      const closed = await startServer()
      try {
        expect(await page.evaluate((url) => window.blocked(url), api.url)).toBe('ConnectionError')
        expect(await page.evaluate((url) => window.blocked(url), closed.url)).toBe(
          'ConnectionError',
        )
      } finally {
        await api.close()
        await closed.close()
      }
    })
  },
)

interface Scenario {
  link: string | null
  created: { id: number; name: string; tag?: string }[]
  listed: Scenario['created']
  walked: Scenario['created']
  missing: { apiError: boolean; status: number; message: string }
}

declare global {
  interface Window {
    scenario(baseUrl: string): Promise<Scenario>
    blocked(baseUrl: string): Promise<string>
    living(baseUrl: string): Promise<{
      shown: string[][]
      closed: boolean
      caughtUp: boolean
      error: string | undefined
    }>
    watching(baseUrl: string): Promise<{
      created: Scenario['created']
      seen: Scenario['created']
      exported: Scenario['created']
    }>
  }
}
