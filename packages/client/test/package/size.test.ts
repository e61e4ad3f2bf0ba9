import { execFile } from 'node:child_process'
import { resolve } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, inject, it } from 'vitest'

const run = promisify(execFile)

describe('size budget of the default entry point', () => {
  it('stays within its budget minified and gzipped (scripts/size.mjs: 7,168 B, live listings 1,248 B more), with no TypeBox in it', async () => {
    const { stdout } = await run(process.execPath, ['scripts/size.mjs', inject('clientPackage')], {
      cwd: resolve(import.meta.dirname, '../..'),
    })
    console.log(stdout.trim())
    const gzip = Number(/(\d+) B min\+gzip \(budget/.exec(stdout)?.[1])
    expect(gzip).toBeGreaterThan(500)
    expect(gzip).toBeLessThanOrEqual(7168)
    const live = Number(/live: (\d+) B min\+gzip beyond/.exec(stdout)?.[1])
    expect(live).toBeGreaterThan(300)
    expect(live).toBeLessThanOrEqual(1248)
  })
})
