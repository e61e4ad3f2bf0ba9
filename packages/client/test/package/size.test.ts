import { execFile } from 'node:child_process'
import { resolve } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, inject, it } from 'vitest'

const run = promisify(execFile)

describe('size budget of the default entry point', () => {
  it('stays within 6.25 KB minified and gzipped, with no TypeBox in it, and live listings within 1 KB more', async () => {
    const { stdout } = await run(process.execPath, ['scripts/size.mjs', inject('clientPackage')], {
      cwd: resolve(import.meta.dirname, '../..'),
    })
    console.log(stdout.trim())
    const gzip = Number(/(\d+) B min\+gzip \(budget/.exec(stdout)?.[1])
    expect(gzip).toBeGreaterThan(500)
    expect(gzip).toBeLessThanOrEqual(6400)
    const live = Number(/live: (\d+) B min\+gzip beyond/.exec(stdout)?.[1])
    expect(live).toBeGreaterThan(300)
    expect(live).toBeLessThanOrEqual(1024)
  })
})
