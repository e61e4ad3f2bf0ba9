import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { commandExists, systemHas } from '@tasklane/testing/requirements'
import { startServer, type TasklaneServer } from '@tasklane/testing/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CLI, tasklane } from './support/cli.js'
import { openTerminal, shellQuote, type Terminal } from './support/tmux.js'

const hasTmux = systemHas('tmux', commandExists('tmux'), 'apt-get install tmux')

describe.runIf(hasTmux)('tasklane in a terminal (a tmux pseudo-terminal)', () => {
  let server: TasklaneServer
  let terminal: Terminal
  let dir: string
  /** The shell command line that runs the built CLI against the test server. */
  const cli = (...args: string[]) =>
    ['env', `TASKLANE_URL=${server.url}`, process.execPath, CLI, ...args].map(shellQuote).join(' ')

  beforeAll(async () => {
    server = await startServer()
    terminal = openTerminal()
    dir = mkdtempSync(join(tmpdir(), 'tasklane-cli-tty-'))
  })
  afterAll(async () => {
    await terminal?.close()
    await server?.close()
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  it('lists tasks as a table with their status that fits the terminal, long names cut with …', async () => {
    const env = { TASKLANE_URL: server.url }
    const long = `A long name ${'that goes on '.repeat(12)}`.trim()
    expect((await tasklane(['add', 'Write docs', '--tag', 'docs'], env)).status).toBe(0)
    expect((await tasklane(['add', long, '--tag', 'long'], env)).status).toBe(0)
    expect((await tasklane(['done', '1'], env)).status).toBe(0)
    const { screen, status } = await terminal.run(cli('list'), 80)
    expect(status).toBe(0)
    const table = screen.slice(screen.findIndex((line) => line.startsWith('ID  STATUS')))
    expect(table[0]).toMatch(/^ID {2}STATUS {2}PRIORITY {2}DUE {2}NAME {2,}TAG$/)
    expect(table[1]).toMatch(/^ 1 {2}done {19}Write docs {2,}docs$/)
    expect(table[2]).toMatch(/^ 2 {2}open {19}A long name that goes on .*… {2}long$/)
    expect(table).toHaveLength(3)
    for (const line of table) expect(line.length).toBeLessThanOrEqual(80)
    // Off a terminal the same name is printed in full.
    const piped = await tasklane(['list'], env)
    expect(piped.stdout).toContain(`${'that goes on '.repeat(12).trim()}  long`)
  })

  it('shows the progress of an import on stderr, one line redrawn in place, and a summary', async () => {
    const total = 3000
    const path = join(dir, 'tasks.ndjson')
    const lines = Array.from({ length: total }, (_, i) => JSON.stringify({ name: `pty ${i + 1}` }))
    writeFileSync(path, `${lines.join('\n')}\n`)
    const { screen, status } = await terminal.run(cli('import', path))
    expect(status).toBe(0)
    const progress = screen.filter((line) => line.includes('Imported'))
    expect(progress).toEqual([expect.stringMatching(/^Imported 3,000 tasks · [\d,]+\/s · 100%$/)])
    expect(screen).toContain(
      'Read 3,000 lines: 3,000 tasks created, 0 already imported, 0 refused.',
    )
  })

  it('shows the progress of an export on stderr while stdout goes to a file', async () => {
    const out = join(dir, 'export.ndjson')
    const { screen, status } = await terminal.run(`${cli('export')} > ${shellQuote(out)}`)
    expect(status).toBe(0)
    expect(screen.filter((line) => line.includes('Exported'))).toEqual([
      expect.stringMatching(/^Exported 3,002 tasks · [\d,]+\/s$/),
    ])
    expect(readFileSync(out, 'utf8').trimEnd().split('\n')).toHaveLength(3002)
  })

  it('shows no progress line when the tasks themselves go to the terminal', async () => {
    // Wide enough that no task's line wraps.
    const { screen, status } = await terminal.run(cli('export', '--tag', 'docs'), 400)
    expect(status).toBe(0)
    // Drawn on the same screen, the progress line would run into the first task's line.
    expect(screen.filter((line) => line !== '' && !line.startsWith('env '))).toEqual([
      expect.stringMatching(
        /^\{"id":1,"listId":1,"name":"Write docs","tag":"docs","status":"done","priority":0,/,
      ),
    ])
  })
})
