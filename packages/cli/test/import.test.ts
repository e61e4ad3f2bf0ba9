import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startServer, type TasklaneServer } from '@tasklane/testing/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pipeTasklane, tasklaneInProcess, tasklaneMeasured } from './support/cli.js'
import { startFlakyProxy } from './support/flaky-proxy.js'

let server: TasklaneServer
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
  const result = await tasklaneInProcess(
    ['export', ...(tag === undefined ? [] : ['--tag', tag])],
    env,
  )
  expect(result.status).toBe(0)
  return result.stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line))
}

/** The id, name and tag of each task of an export: what an import into an empty server keeps. */
function essentials(ndjson: string): { id: number; name: string; tag?: string }[] {
  return ndjson
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const { id, name, tag } = JSON.parse(line)
      return tag === undefined ? { id, name } : { id, name, tag }
    })
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
    const result = await tasklaneInProcess(['import', path, '--concurrency', '1'], env)
    expect(result.status).toBe(1)
    expect(result.stdout).toBe('Read 9 lines: 3 tasks created, 0 already imported, 4 refused.\n')
    const reported = result.stderr.trimEnd().split('\n').sort()
    expect(reported).toEqual([
      "line 3: Unexpected token 'o' at column 2",
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
    const first = await tasklaneInProcess(['import', path, '--json'], env)
    expect(first.status).toBe(0)
    expect(JSON.parse(first.stdout)).toEqual({ lines: 3, created: 3, replayed: 0, failed: 0 })
    const second = await tasklaneInProcess(['import', path, '--json'], env)
    expect(second.status).toBe(0)
    expect(JSON.parse(second.stdout)).toEqual({ lines: 3, created: 0, replayed: 3, failed: 0 })
    // Sent at once, they commit in any order.
    expect((await exported('again')).map(({ name }) => name).sort()).toEqual([
      'other',
      'same',
      'same',
    ])
  })

  it('refuses a line longer than the server takes on its own, in bounded memory, and goes on', async () => {
    const short = file('short.ndjson', [
      '{"name":"short one","tag":"long"}',
      '{"name":"short two"}',
    ])
    const path = file('long.ndjson', ['{"name":"before the long line","tag":"long"}'])
    // 16 MiB on one line, written in pieces: a valid task padded with a field of its own.
    const size = 16 * 1024 * 1024
    appendFileSync(path, '{"name":"x","padding":"')
    const piece = 'p'.repeat(1024 * 1024)
    for (let written = 0; written < size; written += piece.length) appendFileSync(path, piece)
    appendFileSync(path, '"}\n{"name":"after the long line","tag":"long"}\n')

    const baseline = await tasklaneMeasured(['import', short, '--json'], env)
    expect(baseline.status).toBe(0)
    const result = await tasklaneMeasured(['import', path, '--json'], env)
    expect(result.status).toBe(1)
    expect(result.stderr).toBe(
      'line 2: is 16,777,241 bytes long; the server takes at most 65,536 bytes for a task.\n',
    )
    expect(JSON.parse(result.stdout)).toEqual({ lines: 3, created: 2, replayed: 0, failed: 1 })
    expect((await exported('long')).map(({ name }) => name)).toEqual(
      expect.arrayContaining(['before the long line', 'after the long line']),
    )
    // Held whole, the line alone would take 16 MiB more than a run over two short lines.
    expect(result.maxRss - baseline.maxRss).toBeLessThan(size / 4)
  })

  it('counts a line as created when the answer to its create was lost and the retry was replayed', async () => {
    // The server commits each create, but the first answer for each line never arrives: the
    // client retries with the same Idempotency-Key and the server replays this run's task.
    const answered = new Set<unknown>()
    const proxy = await startFlakyProxy(server.url, ({ method, headers }) => {
      if (method !== 'POST') return false
      const first = !answered.has(headers['idempotency-key'])
      answered.add(headers['idempotency-key'])
      return first
    })
    try {
      const path = file('lost.ndjson', ['{"name":"lost one","tag":"lost"}', '{"name":"lost two"}'])
      const lossy = await tasklaneInProcess(['import', path, '--json'], { TASKLANE_URL: proxy.url })
      expect(lossy).toMatchObject({ status: 0, stderr: '' })
      expect(JSON.parse(lossy.stdout)).toEqual({ lines: 2, created: 2, replayed: 0, failed: 0 })
      expect(proxy.requests.filter(({ method }) => method === 'POST')).toHaveLength(4)
      // Run again, every line is one an earlier run created.
      const again = await tasklaneInProcess(['import', path, '--json'], env)
      expect(JSON.parse(again.stdout)).toEqual({ lines: 2, created: 0, replayed: 2, failed: 0 })
    } finally {
      await proxy.close()
    }
  })

  it('reads standard input with -: tasklane export | tasklane import - copies the tasks, and again copies nothing twice', async () => {
    const lines = [
      '{"name":"piped one","tag":"pipe"}',
      '{"name":"piped 🚀 two"}',
      '{"name":"piped one","tag":"pipe"}',
    ]
    await tasklaneInProcess(['import', file('pipe.ndjson', lines), '--concurrency', '1'], env)
    const source = (await tasklaneInProcess(['export'], env)).stdout
    const target = await startServer()
    try {
      const copy = () =>
        pipeTasklane(
          { args: ['export'], env },
          {
            args: ['import', '-', '--concurrency', '1', '--json'],
            env: { TASKLANE_URL: target.url },
          },
        )
      const first = await copy()
      expect(first.left.status).toBe(0)
      expect(first.right).toMatchObject({ status: 0, stderr: '' })
      const count = source.trimEnd().split('\n').length
      expect(JSON.parse(first.right.stdout)).toEqual({
        lines: count,
        created: count,
        replayed: 0,
        failed: 0,
      })
      // An empty server given the tasks one at a time in id order: the same ids too.
      const copied = await tasklaneInProcess(['export'], { TASKLANE_URL: target.url })
      expect(essentials(copied.stdout)).toEqual(essentials(source))

      const again = await copy()
      expect(again.right.status).toBe(0)
      expect(JSON.parse(again.right.stdout)).toEqual({
        lines: count,
        created: 0,
        replayed: count,
        failed: 0,
      })
      const unchanged = await tasklaneInProcess(['export'], { TASKLANE_URL: target.url })
      expect(essentials(unchanged.stdout)).toEqual(essentials(source))
    } finally {
      await target.close()
    }
  })

  it('exits 1 when the server refuses every line alike (401), and imports all once given the token', async () => {
    const guarded = await startServer({ apiToken: 'import-token' })
    try {
      const path = file('guarded.ndjson', ['{"name":"a"}', '{"name":"b"}'])
      const result = await tasklaneInProcess(['import', path], { TASKLANE_URL: guarded.url })
      expect(result.status).toBe(1)
      expect(result.stderr).toContain('(HTTP 401')
      const withToken = { TASKLANE_URL: guarded.url, TASKLANE_TOKEN: 'import-token' }
      const done = await tasklaneInProcess(['import', path, '--json'], withToken)
      expect(JSON.parse(done.stdout)).toEqual({ lines: 2, created: 2, replayed: 0, failed: 0 })
    } finally {
      await guarded.close()
    }
  })
})
