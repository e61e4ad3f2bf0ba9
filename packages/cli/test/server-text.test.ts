import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTasklane, tasklane, waitFor } from './support/cli.js'

// A server that answers with text meant to take over a terminal: set its title (OSC),
// clear the screen (CSI) and start a CSI with the one-byte C1 control U+009B.
const HOSTILE = 'Refused \u001b]0;owned\u0007 \u001b[2J \u009b31m red \u202eevil'
const SHOWN = 'Refused \\u001b]0;owned\\u0007 \\u001b[2J \\u009b31m red \\u202eevil'
/** C0 and C1 controls but the final newline, DEL, bidirectional overrides. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is its job.
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u

/** A task whose every text field holds escape sequences, its status too. */
const HOSTILE_TASK = {
  id: 1,
  name: `a${HOSTILE}`,
  tag: '\u009b1m',
  status: '\u001b[2J',
  version: 1,
  createdAt: '2026-11-25T09:30:00.000Z',
  updatedAt: '2026-11-25T09:30:00.000Z',
}

/** A task whose id, version and priority are text with escape sequences: what a JSON number should be. */
const HOSTILE_ID = {
  id: '2\u001b[2J\u009b',
  name: 'hostile id',
  status: 'open',
  priority: '\u009b31m',
  due: '\u001b[2J',
  version: '\u001b]0;owned\u0007',
  createdAt: '2026-11-25T09:30:00.000Z',
  updatedAt: '2026-11-25T09:30:00.000Z',
}
/** A task whose text fields are not text at all. */
const NOT_TEXT = {
  id: 3,
  name: ['\u001b[2J'],
  tag: { tag: '\u009b31m' },
  status: null,
  version: 1,
  createdAt: '2026-11-25T09:30:00.000Z',
  updatedAt: '2026-11-25T09:30:00.000Z',
}

/** The change feed's events: a hostile task created, then one with a hostile id deleted. */
const EVENTS =
  `id: 1\nevent: created\ndata: ${JSON.stringify(HOSTILE_ID)}\n\n` +
  `id: 2\nevent: updated\ndata: ${JSON.stringify(NOT_TEXT)}\n\n` +
  `id: 3\nevent: deleted\ndata: ${JSON.stringify({ id: '9\u001b[2J', version: 1 })}\n\n`

let server: Server
let env: NodeJS.ProcessEnv
let dir: string

beforeAll(async () => {
  server = createServer((request, response) => {
    // A header value may hold bytes 0x80-0xFF, which reach the client as U+0080-U+00FF.
    response.setHeader('x-request-id', 'req-\u009b2J')
    const path = new URL(request.url ?? '/', 'http://x').pathname
    if (request.method === 'GET' && path === '/tasks') {
      response.setHeader('content-type', 'application/json')
      response.end(JSON.stringify([HOSTILE_TASK, HOSTILE_ID, NOT_TEXT]))
      return
    }
    if (request.method === 'GET' && path === '/tasks/2') {
      response.setHeader('content-type', 'application/json')
      response.end(JSON.stringify(HOSTILE_ID))
      return
    }
    if (request.method === 'GET' && path === '/tasks/events') {
      // The events, then the stream stays open, as a feed does.
      response.setHeader('content-type', 'text/event-stream')
      response.write(EVENTS)
      return
    }
    response.statusCode = 400
    response.setHeader('content-type', 'application/json')
    response.end(JSON.stringify({ code: 400, message: HOSTILE }))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  env = { TASKLANE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }
  dir = mkdtempSync(join(tmpdir(), 'tasklane-cli-hostile-'))
})
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve))
  if (dir) rmSync(dir, { recursive: true, force: true })
})

describe('text from the server, written where a terminal may show it', () => {
  it("shows the escape sequences of an error's message and request id escaped, on one line", async () => {
    const result = await tasklane(['get', '7'], env)
    expect(result.status).toBe(1)
    expect(result.stderr).toContain(`tasklane: ${SHOWN} (HTTP 400 from GET`)
    // Node writes the header as UTF-8 and fetch reads it as Latin-1 (Â then U+009B).
    expect(result.stderr).toMatch(/request id req-\S*\\u009b2J\)\n$/)
    expect(result.stderr).not.toMatch(RAW)
    expect(result.stderr.split('\n')).toHaveLength(2)
  })

  it("shows the server's message about an import line escaped", async () => {
    const path = join(dir, 'one.ndjson')
    writeFileSync(path, '{"name":"x"}\n')
    const result = await tasklane(['import', path], env)
    expect(result.status).toBe(1)
    expect(result.stderr).toBe(`line 1: ${SHOWN}\n`)
  })

  it('escapes controls in a table, and in JSON writes the C1 and bidirectional ones as \\u escapes', async () => {
    const table = await tasklane(['list'], env)
    expect(table.status).toBe(0)
    expect(table.stdout).toContain(`a${SHOWN}`)
    expect(table.stdout).toContain('\\u001b[2J')
    expect(table.stdout).not.toMatch(RAW)
    const json = await tasklane(['list', '--json'], env)
    expect(json.status).toBe(0)
    expect(json.stdout).not.toMatch(RAW)
    // Still the same characters to a JSON reader.
    expect(JSON.parse(json.stdout)).toEqual([HOSTILE_TASK, HOSTILE_ID, NOT_TEXT])
  })

  it('escapes an id that is text, and shows fields that are not text as text, in list and get', async () => {
    const table = await tasklane(['list'], env)
    expect(table.status).toBe(0)
    expect(table.stdout).not.toMatch(RAW)
    const hostileRow = /^2\\u001b\[2J\\u009b +open +\\u009b31m +\\u001b\[2J +hostile id$/m
    expect(table.stdout).toMatch(hostileRow)
    expect(table.stdout).toMatch(/^ +3 +\["\\u001b\[2J"\] +\{"tag":"\\u009b31m"\}$/m)
    const one = await tasklane(['get', '2'], env)
    expect(one.status).toBe(0)
    expect(one.stdout).not.toMatch(RAW)
    expect(one.stdout).toMatch(hostileRow)
    const json = await tasklane(['get', '2', '--json'], env)
    expect(json.stdout).not.toMatch(RAW)
    expect(JSON.parse(json.stdout)).toEqual(HOSTILE_ID)
  })

  it("escapes every field of watch's lines, the id of a deleted task too, and keeps its JSON valid", async () => {
    for (const json of [false, true]) {
      const watcher = startTasklane(['watch', '--after', '0', ...(json ? ['--json'] : [])], env)
      await waitFor('three events printed', () => watcher.stdout().split('\n').length > 3)
      watcher.child.kill('SIGTERM')
      expect(await watcher.exited).toEqual({ status: 0, signal: null })
      const lines = watcher.stdout().trimEnd().split('\n')
      expect(watcher.stdout()).not.toMatch(RAW)
      if (json) {
        expect(lines.map((line) => JSON.parse(line).task)).toEqual([
          HOSTILE_ID,
          NOT_TEXT,
          { id: '9\u001b[2J', version: 1 },
        ])
      } else {
        expect(lines).toEqual([
          'created  2\\u001b[2J\\u009b  open  hostile id',
          'updated  3    ["\\u001b[2J"]  [{"tag":"\\u009b31m"}]',
          'deleted  9\\u001b[2J',
        ])
      }
    }
  })
})
