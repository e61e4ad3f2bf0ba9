import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startServer, type TasklaneServer } from '@tasklane/testing/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTasklane, tasklane, waitFor } from './support/cli.js'

// Slow: each case imports 4,000 lines twice through the built binary.

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

/** The tasks of a tag on the server, through `tasklane export`. */
async function exported(tag: string): Promise<{ id: number; name: string; tag?: string }[]> {
  const result = await tasklane(['export', '--tag', tag], env)
  expect(result.status).toBe(0)
  return result.stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line))
}

describe('tasklane import, interrupted', () => {
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
})
