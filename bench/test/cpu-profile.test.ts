import { describe, expect, it } from 'vitest'
import { selfTimes, shortUrl } from '../src/cpu-profile.js'

const frame = (id: number, functionName: string, url = '') => ({
  id,
  callFrame: { functionName, url, lineNumber: 9 },
})

describe('selfTimes', () => {
  const profile = {
    nodes: [
      frame(1, '(idle)'),
      frame(2, 'listTasks', 'file:///x/apps/server/dist/storage.js'),
      frame(3, 'writev'),
    ],
    startTime: 1_000,
    // Samples at 1010, 1020, 1050, 1060 (µs): each weighted by its delta.
    samples: [2, 3, 1, 2],
    timeDeltas: [10, 10, 30, 10],
  }

  it('shares the busy time by function, idle left out, largest first', () => {
    expect(selfTimes(profile)).toEqual([
      { frame: 'listTasks (dist/storage.js:10)', share: 20 / 30 },
      { frame: 'writev', share: 10 / 30 },
    ])
  })

  it('counts only the samples within a window of the clock', () => {
    expect(selfTimes(profile, { from: 1_015, to: 1_060 })).toEqual([
      { frame: 'writev', share: 0.5 },
      { frame: 'listTasks (dist/storage.js:10)', share: 0.5 },
    ])
  })

  it('names files by their package or their place in the server', () => {
    expect(
      shortUrl('file:///r/node_modules/.pnpm/fastify@5/node_modules/fastify/lib/reply.js'),
    ).toBe('fastify/lib/reply.js')
    expect(shortUrl('node:internal/streams/writable')).toBe('node:internal/streams/writable')
  })
})
