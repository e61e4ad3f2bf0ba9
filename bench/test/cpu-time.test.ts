import { describe, expect, it } from 'vitest'
import { cpuMicrosOf } from '../src/processes.js'

describe('cpuMicrosOf', () => {
  it('reads a process’s CPU time from /proc, and it grows while the process computes', () => {
    const before = cpuMicrosOf(process.pid)
    expect(before).toBeGreaterThan(0)
    // 50 ms of work: at least a few clock ticks (10 ms each).
    const until = performance.now() + 50
    let spins = 0
    while (performance.now() < until) spins++
    expect(spins).toBeGreaterThan(0)
    expect(cpuMicrosOf(process.pid) - before).toBeGreaterThanOrEqual(20_000)
  })

  it('is NaN for a process that does not exist', () => {
    expect(cpuMicrosOf(2 ** 22 + 1)).toBeNaN()
  })
})
