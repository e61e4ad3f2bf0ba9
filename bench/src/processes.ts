import { spawnSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { join } from 'node:path'
import { type ServerProcess as Launched, launch } from '@tasklane/testing/launch'

export { killAll } from '@tasklane/testing/launch'

/** A server the benchmark runs, by name. */
export interface ServerProcess extends Launched {
  readonly name: string
  /** Sent with every request the bench makes of this server (a credential), if any. */
  readonly headers?: Record<string, string>
}

/** The core every server started from now on is pinned to (`taskset -c`), if any. */
let serverCore: number | undefined

/**
 * Where the machine has two cores or more and `taskset` exists: this process (the load
 * generator, every thread of it) on core 0, and every server started afterwards on core
 * 1, so that neither takes the other's core and a run's figures move less. What was done,
 * or why not, in a sentence. PostgreSQL, not started here, is not pinned.
 */
export function pinCores(): string {
  if (availableParallelism() < 2) return 'not pinned to cores: fewer than 2 cores'
  const self = spawnSync('taskset', ['-acp', '0', String(process.pid)], { encoding: 'utf8' })
  if (self.error || self.status !== 0) {
    return `not pinned to cores: taskset ${self.error ? 'not found' : `failed (${self.stderr.trim()})`}`
  }
  serverCore = 1
  return 'pinned: the load generator (this process) to core 0, each server to core 1 (taskset)'
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
  const { name, logDir, command, args, ...rest } = options
  const server = await launch({
    ...rest,
    // taskset execs the command: the child's pid is the server's.
    ...(serverCore === undefined
      ? { command, args }
      : { command: 'taskset', args: ['-c', String(serverCore), command, ...args] }),
    logFile: join(logDir, `${name.replace(/\W+/g, '-')}.log`),
    timeoutMs: 30_000,
  })
  return { ...server, name }
}

/** Clock ticks a second, in which /proc/<pid>/stat counts CPU time (getconf CLK_TCK; 100 on Linux), asked once when first needed. */
let ticksPerSecond: number | undefined
function clockTicks(): number {
  if (ticksPerSecond === undefined) {
    const ticks = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout)
    ticksPerSecond = Number.isFinite(ticks) && ticks > 0 ? ticks : 100
  }
  return ticksPerSecond
}

/**
 * CPU time a process has used so far, user and system, in µs (/proc/<pid>/stat), or NaN
 * where there is no /proc. Its difference over a load run, divided by the requests
 * answered, is what a request costs the server: unlike req/s, it hardly moves when other
 * processes take turns on the machine.
 */
export function cpuMicrosOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // Fields after the command name (which may hold spaces), from field 3 (state) on.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    const [utime, stime] = [Number(fields[11]), Number(fields[12])]
    return ((utime + stime) * 1e6) / clockTicks()
  } catch {
    return Number.NaN
  }
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
