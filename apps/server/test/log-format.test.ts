import { launch } from '@tasklane/testing/launch'
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest'
import { get } from './support/http.js'
import { killAll, runServer, SERVER_DIR, serverMain } from './support/processes.js'
import { startInTerminal, type Terminal } from './support/terminal.js'
import { createTestDatabase, type TestDatabase } from './support/test-database.js'

afterAll(killAll)

let testDatabase: TestDatabase
beforeEach(async () => {
  testDatabase = await createTestDatabase()
})
afterEach(() => testDatabase.drop())

/** What every server here runs with: a free port, its own database, no shedding. */
const env = () => ({
  PORT: '0',
  HOST: '127.0.0.1',
  DATABASE_URL: testDatabase.url,
  MAX_EVENT_LOOP_DELAY_MS: '0',
})

/** A terminal's "Server listening at" line, pretty or JSON, and the URL it names. */
const LISTENING = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/

describe('the log on a terminal', () => {
  let terminal: Terminal | undefined
  afterEach(() => terminal?.close())

  it('is readable lines by default: the address the server listens at, one line per request', async () => {
    terminal = await startInTerminal([process.execPath, serverMain()], env())
    const listening = await terminal.waitForLine(LISTENING)
    expect(listening).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: Server listening at http:/)
    const url = LISTENING.exec(listening)?.[1] as string
    expect((await get({ url }, '/tasks?limit=1')).status).toBe(200)
    expect(await terminal.waitForLine(/GET \/tasks\?limit=1/)).toMatch(
      /^\[[\d:.]+\] INFO: GET \/tasks\?limit=1 200 [\d.]+ ms \{"reqId":"[\w-]+","client":"127\.0\.0\.1"\}$/,
    )
    expect((await terminal.screen()).filter((line) => line.startsWith('{'))).toEqual([])
    // Ctrl-C: the last lines reach the terminal before the process exits.
    await terminal.sendKeys('C-c')
    await terminal.waitForLine(/INFO: shutting down \{"signal":"SIGINT"\}/)
  })

  it('is JSON lines with LOG_FORMAT=json', async () => {
    terminal = await startInTerminal([process.execPath, serverMain()], {
      ...env(),
      LOG_FORMAT: 'json',
    })
    const listening = await terminal.waitForLine(LISTENING)
    expect(JSON.parse(listening)).toMatchObject({
      level: 30,
      msg: expect.stringMatching(LISTENING),
    })
  })
})

describe('the log into a pipe', () => {
  it('is JSON lines by default, one object a line', async () => {
    const server = await launch({
      args: [serverMain()],
      cwd: SERVER_DIR,
      env: env(),
      readyPath: '/health/ready',
    })
    await get(server, '/tasks?limit=2')
    await server.waitForLine(/"url":"\/tasks\?limit=2"/)
    await server.stop()
    const lines = server.lines.filter((line) => line !== '')
    expect(lines.length).toBeGreaterThan(3)
    for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow()
  })

  it('is readable lines without colours with LOG_FORMAT=pretty', async () => {
    const server = await launch({
      args: [serverMain()],
      cwd: SERVER_DIR,
      env: { ...env(), LOG_FORMAT: 'pretty' },
      readyPath: '/health/ready',
    })
    await get(server, '/tasks?limit=3')
    const line = await server.waitForLine(/GET \/tasks\?limit=3/)
    await server.stop()
    expect(line).toMatch(/^\[[\d:.]+\] INFO: GET \/tasks\?limit=3 200 [\d.]+ ms \{/)
    expect(server.lines.join('\n')).not.toContain('\u001b[')
  })
})

describe('LOG_FORMAT', () => {
  it('refuses a format it does not know, naming the three it does', () => {
    const { status, stderr } = runServer([], { ...env(), LOG_FORMAT: 'xml' })
    expect({ status, stderr }).toEqual({
      status: 2,
      stderr: 'LOG_FORMAT "xml" is not one of auto, json, pretty.\n',
    })
  })
})
