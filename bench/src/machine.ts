import { readFileSync } from 'node:fs'
import { availableParallelism, cpus, release, totalmem, type } from 'node:os'
import type { Machine } from './results.js'

/** nproc, the CPU model from /proc/cpuinfo, Node's version, OS and memory. */
export function describeMachine(): Machine {
  let cpu = cpus()[0]?.model ?? 'unknown'
  try {
    const match = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))
    if (match?.[1]) cpu = match[1].trim()
  } catch {}
  return {
    nproc: availableParallelism(),
    cpu,
    node: process.version,
    os: `${type()} ${release()}`,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
  }
}
