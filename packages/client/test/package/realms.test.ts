import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { runInNewContext } from 'node:vm'
import { describe, expect, inject, it } from 'vitest'
import * as here from '../../src/index.js'

/** The built CommonJS client evaluated in a separate realm (its own globals and classes). */
async function otherRealm(): Promise<typeof here> {
  const code = await readFile(join(inject('clientPackage'), 'dist/index.cjs'), 'utf8')
  const module = { exports: {} as typeof here }
  runInNewContext(code, { module, exports: module.exports, require: () => ({}) })
  return module.exports
}

describe('type guards across realms and bundle copies', () => {
  it('recognise errors whose classes come from another realm', async () => {
    const there = await otherRealm()
    const response = new Response('{}', { status: 404 })
    const foreign = new there.ApiError(
      404,
      404,
      'Not here.',
      'GET',
      'http://h/tasks/1',
      undefined,
      response,
    )
    expect(foreign instanceof here.ApiError).toBe(false)
    expect(here.isApiError(foreign)).toBe(true)
    expect(here.isTasklaneError(foreign)).toBe(true)
    const timeout = new there.TimeoutError('Too slow.', 'GET', 'http://h/tasks')
    expect(here.isTasklaneError(timeout)).toBe(true)
    expect(here.isApiError(timeout)).toBe(false)
    expect(
      there.isApiError(new here.ApiError(500, 500, 'x', 'GET', 'u', undefined, response)),
    ).toBe(true)
  })

  it('reject look-alikes without the brand', () => {
    const lookalike = Object.assign(new Error('x'), { name: 'ApiError', status: 500 })
    expect(here.isApiError(lookalike)).toBe(false)
    expect(here.isTasklaneError(null)).toBe(false)
    expect(here.isTasklaneError('ApiError')).toBe(false)
  })
})
