import { type ChildProcess, spawn } from 'node:child_process'
import { INSTANCE_MAIN_JS } from './global-setup-postgres.js'

/** A tasklane server running as its own operating-system process. */
export interface Instance {
  readonly child: ChildProcess
  /** `http://127.0.0.1:NNNN`, from the server's "Server listening at" log line. */
  readonly url: string
  /** Every line the process wrote to stdout and stderr so far. */
  readonly lines: string[]
  /** SIGTERM, then SIGKILL after 5 s; resolves once the process is gone. */
  stop(): Promise<void>
}

const running = new Set<Instance>()

/** The URL in Fastify's `{"msg":"Server listening at http://…"}` log line, if it is one. */
function listeningAt(line: string): string | undefined {
  if (!line.startsWith('{')) return undefined
  try {
    const { msg } = JSON.parse(line) as { msg?: unknown }
    return typeof msg === 'string'
      ? /^Server listening at (http:\/\/\S+)$/.exec(msg)?.[1]
      : undefined
  } catch {
    return undefined
  }
}

/**
 * Spawns `node main.js` (the build copied by global-setup-postgres.ts) on port 0 and
 * resolves once it logs the address it listens on.
 */
export function startInstance(env: NodeJS.ProcessEnv): Promise<Instance> {
  const child = spawn(process.execPath, [INSTANCE_MAIN_JS], {
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      // The tests load two cores on purpose; event-loop shedding is tested elsewhere.
      MAX_EVENT_LOOP_DELAY_MS: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const lines: string[] = []
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000)
      await exited
      clearTimeout(timer)
    }
    if (instance) running.delete(instance)
  }
  let instance: Instance | undefined
  return new Promise<Instance>((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop()
      reject(new Error(`no "Server listening" line within 20 s:\n${lines.join('\n')}`))
    }, 20_000)
    void exited.then(() => {
      clearTimeout(timer)
      reject(new Error(`the server exited before listening:\n${lines.join('\n')}`))
    })
    for (const stream of [child.stdout, child.stderr]) {
      let rest = ''
      stream.setEncoding('utf8').on('data', (chunk: string) => {
        const parts = (rest + chunk).split('\n')
        rest = parts.pop() ?? ''
        for (const line of parts) {
          lines.push(line)
          // PORT=0: the real port is only in this line (pino JSON).
          const url = listeningAt(line)
          if (url !== undefined && instance === undefined) {
            clearTimeout(timer)
            instance = { child, url, lines, stop }
            running.add(instance)
            resolve(instance)
          }
        }
      })
    }
  })
}

/** Stops every instance still running (for afterAll). */
export async function stopAll(): Promise<void> {
  await Promise.all([...running].map((instance) => instance.stop()))
}
