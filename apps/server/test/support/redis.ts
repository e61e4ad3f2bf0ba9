import { type ChildProcess, spawn } from 'node:child_process'
import { freePort, within } from '@tasklane/testing/launch'
import { commandExists, systemHas } from '@tasklane/testing/requirements'

/** True when redis-server can be started; otherwise the tests that need it skip loudly. */
export const hasRedis = (): boolean =>
  systemHas('redis-server', commandExists('redis-server'), 'apt-get install redis-server')

/** A Redis server of the test's own: no one else's keys, and it may be stopped at will. */
export interface TestRedis {
  readonly port: number
  /** `redis://127.0.0.1:<port>` */
  readonly url: string
  /** Stops it (SIGKILL: an outage, not a shutdown); `start` brings it back on the same port. */
  stop(): Promise<void>
  start(): Promise<void>
}

const running = new Set<ChildProcess>()

/** Starts redis-server on a free port of 127.0.0.1, in memory only. */
export async function startRedis(): Promise<TestRedis> {
  const port = await freePort()
  let child: ChildProcess | undefined
  const start = async () => {
    const process = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    )
    child = process
    running.add(process)
    process.once('exit', () => running.delete(process))
    let output = ''
    const ready = new Promise<void>((resolve, reject) => {
      process.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
        output += chunk
        if (output.includes('Ready to accept connections')) resolve()
      })
      process.once('exit', (code) => reject(new Error(`redis-server exited (${code}): ${output}`)))
    })
    await within(ready, 10_000, `redis-server on port ${port} ready`)
  }
  const stop = async () => {
    const process = child
    if (!process || process.exitCode !== null || process.signalCode !== null) return
    const exited = new Promise((resolve) => process.once('exit', resolve))
    process.kill('SIGKILL')
    await within(exited, 5_000, 'redis-server exit')
  }
  await start()
  return { port, url: `redis://127.0.0.1:${port}`, stop, start }
}

/** Kills every Redis started here; for afterAll. */
export async function stopAllRedis(): Promise<void> {
  for (const child of running) child.kill('SIGKILL')
}
