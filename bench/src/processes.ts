import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { type ServerProcess as Launched, launch } from '@tasklane/testing/launch'

export { killAll } from '@tasklane/testing/launch'

/** A server the benchmark runs, by name. */
export interface ServerProcess extends Launched {
  readonly name: string
}

/**
 * Starts a server with the launcher the test suites use, on a free port of 127.0.0.1,
 * its output in `logDir` (a pipe the benchmark had to drain would cost the load
 * generator CPU), ready once `readyPath` answers 200.
 */
export async function startServer(options: {
  name: string
  command: string
  args: string[]
  cwd: string
  env: Record<string, string>
  readyPath: string
  logDir: string
}): Promise<ServerProcess> {
  const { name, logDir, ...rest } = options
  const server = await launch({
    ...rest,
    logFile: join(logDir, `${name.replace(/\W+/g, '-')}.log`),
    timeoutMs: 30_000,
  })
  return { ...server, name }
}

/** Resident and peak-resident memory of a process, in bytes, from /proc/<pid>/status. */
export function memoryOf(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const field = (name: string) => {
    const match = new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)
    return match ? Number(match[1]) * 1024 : Number.NaN
  }
  return { rss: field('VmRSS'), hwm: field('VmHWM') }
}

/** Resets VmHWM to the current RSS (Linux ≥ 4.0); false where the kernel does not allow it. */
export function resetPeakMemory(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5')
    return true
  } catch {
    return false
  }
}
