import { execFile } from 'node:child_process'
import { resolve } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, inject, it } from 'vitest'

const run = promisify(execFile)

describe('size budget of the default entry point', () => {
  it('stays within 4 KB minified and gzipped, with no TypeBox in it', async () => {
    const { stdout } = await run(process.execPath, ['scripts/size.mjs', inject('clientPackage')], {
      cwd: resolve(import.meta.dirname, '../..'),
    })
    console.log(stdout.trim())
    const gzip = Number(/(\d+) B min\+gzip \(budget/.exec(stdout)?.[1])
    expect(gzip).toBeGreaterThan(500)
    expect(gzip).toBeLessThanOrEqual(4096)
  })
})
