import { execFile } from 'node:child_process'
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { publint } from 'publint'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'

const run = promisify(execFile)
const ATTW = resolve(import.meta.dirname, '../../node_modules/.bin/attw')

let dir: string

/** Where each tarball was unpacked: publint and attw see exactly what npm would install. */
const unpacked = (name: string) => join(dir, name, 'package')

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tasklane-publish-'))
  for (const [name, tarball] of Object.entries(inject('tarballs'))) {
    await mkdir(join(dir, name))
    await run('tar', ['xzf', tarball, '-C', join(dir, name)])
  }
})
afterAll(() => rm(dir, { recursive: true, force: true }))

describe.each(['client', 'contract'] as const)('@tasklane/%s as published', (name) => {
  it('has no publint messages, suggestions included', async () => {
    const { messages } = await publint({
      pkgDir: unpacked(name),
      level: 'suggestion',
      strict: true,
    })
    expect(messages).toEqual([])
  }, 60_000)

  it('has no problems according to attw --pack', async () => {
    const { stdout } = await run(ATTW, ['--pack', unpacked(name), '--format', 'json'], {
      maxBuffer: 64 * 1024 * 1024,
    }).catch((error: { stdout: string }) => error)
    const report = JSON.parse(stdout) as { analysis: { problems: unknown[] } }
    expect(report.analysis.problems).toEqual([])
  }, 120_000)
})
