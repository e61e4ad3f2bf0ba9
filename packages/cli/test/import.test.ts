import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTasklane, tasklane, waitFor } from './support/cli.js'
import { type CliTestServer, startServer } from './support/server.js'

let server: CliTestServer
let env: NodeJS.ProcessEnv
let dir: string

beforeAll(async () => {
  server = await startServer()
  env = { TASKLANE_URL: server.url }
  dir = mkdtempSync(join(tmpdir(), 'tasklane-cli-import-'))
})
afterAll(async () => {
  await server?.close()
  rmSync(dir, { recursive: true, force: true })
})

/** Writes an import file and returns its path. */
function file(name: string, lines: readonly string[]): string {
  const path = join(dir, name)
  writeFileSync(path, `${lines.join('\n')}\n`)
  return path
}

/** Every task on the server, through `tasklane export`. */
async function exported(tag?: string): Promise<{ id: number; name: string; tag?: string }[]> {
  const result = await tasklane(['export', ...(tag === undefined ? [] : ['--tag', tag])], env)
  expect(result.status).toBe(0)
  return result.stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line))
}

describe('tasklane import', () => {
  it("creates a task per line in the file's order with --concurrency 1, skips blank lines, reports bad lines by number and goes on", async () => {
    const path = file('mixed.ndjson', [
      '{"name":"first","tag":"mixed"}',
      '',
      'not json',
      '{"name":"","tag":"mixed"}',
      '[1,2]',
      '   ',
      '{"id":77,"name":"from an export","tag":"mixed"}',
      '{"name":"extra","tag":"mixed","done":true}',
      '{"name":"last","tag":"mixed"}',
    ])
    const result = await tasklane(['import', path, '--concurrency', '1'], env)
    expect(result.status).toBe(1)
    expect(result.stdout).toBe('Read 9 lines: 3 tasks created, 0 already imported, 4 refused.\n')
    const reported = result.stderr.trimEnd().split('\n').sort()
    expect(reported).toEqual([
      'line 3: is not valid JSON',
      expect.stringMatching(/^line 4: .*"name"/),
      'line 5: is not a JSON object',
      expect.stringMatching(/^line 8: .*"done"/),
    ])
    // The id of an exported task is the server's to give: a new one.
    expect((await exported('mixed')).map(({ name }) => name)).toEqual([
      'first',
      'from an export',
      'last',
    ])
  })

  it('creates nothing twice when run again, and a line repeated at another place is a task of its own', async () => {
    const lines = ['{"name":"same","tag":"again"}', '{"name":"other","tag":"again"}']
    const path = file('again.ndjson', [...lines, lines[0] as string])
    const first = await tasklane(['import', path, '--json'], env)
    expect(first.status).toBe(0)
    expect(JSON.parse(first.stdout)).toEqual({ lines: 3, created: 3, replayed: 0, failed: 0 })
    const second = await tasklane(['import', path, '--json'], env)
    expect(second.status).toBe(0)
    expect(JSON.parse(second.stdout)).toEqual({ lines: 3, created: 0, replayed: 3, failed: 0 })
    // Sent at once, they commit in any order.
    expect((await exported('again')).map(({ name }) => name).sort()).toEqual([
      'other',
      'same',
      'same',
    ])
  })

  it.each(['SIGKILL', 'SIGINT'] as const)(
    'makes exactly one task per line when an import stopped midway by %s is run again',
    async (signal) => {
      const tag = `big-${signal}`
      const total = 4000
      const lines = Array.from({ length: total }, (_, i) =>
        JSON.stringify({ name: `task ${i + 1}`, tag }),
      )
      const path = file(`${tag}.ndjson`, lines)
      const start = await server.count()
      const importing = startTasklane(['import', path], env)
      await waitFor('the import being under way', async () => (await server.count()) - start >= 300)
      importing.child.kill(signal)
      const stopped = await importing.exited
      if (signal === 'SIGINT') {
        // It finishes the creates in flight, says how far it got and how to go on.
        expect(stopped).toEqual({ status: 130, signal: null })
        expect(importing.stderr()).toContain('Interrupted: run the same import again to finish it.')
        expect(importing.stdout()).toMatch(/^Read [\d,]+ lines: [\d,]+ tasks created/)
      } else {
        expect(stopped.signal).toBe('SIGKILL')
      }
      const midway = (await exported(tag)).length
      // Stopped midway, or the test tests nothing.
      expect(midway).toBeLessThan(total)

      const rerun = await tasklane(['import', path, '--json'], env)
      expect(rerun.status).toBe(0)
      const summary = JSON.parse(rerun.stdout)
      expect(summary).toMatchObject({ lines: total, failed: 0 })
      expect(summary.created + summary.replayed).toBe(total)
      expect(summary.replayed).toBeGreaterThanOrEqual(midway)
      const names = (await exported(tag)).map(({ name }) => name)
      expect(names).toHaveLength(total)
      expect(new Set(names).size).toBe(total)
    },
  )

  it('exits 1 when the server refuses every line alike (401), and imports all once given the token', async () => {
    const guarded = await startServer({ API_TOKEN: 'import-token' })
    try {
      const path = file('guarded.ndjson', ['{"name":"a"}', '{"name":"b"}'])
      const result = await tasklane(['import', path], { TASKLANE_URL: guarded.url })
      expect(result.status).toBe(1)
      expect(result.stderr).toContain('(HTTP 401')
      const withToken = { TASKLANE_URL: guarded.url, TASKLANE_TOKEN: 'import-token' }
      const done = await tasklane(['import', path, '--json'], withToken)
      expect(JSON.parse(done.stdout)).toEqual({ lines: 2, created: 2, replayed: 0, failed: 0 })
    } finally {
      await guarded.close()
    }
  })
})
