import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort, within } from './launch.js'
import { commandExists } from './requirements.js'

/** Debian's PgBouncer (package pgbouncer), else one on the PATH. */
const BINARY = existsSync('/usr/sbin/pgbouncer') ? '/usr/sbin/pgbouncer' : 'pgbouncer'

/** True when PgBouncer can be started here. */
export const pgbouncerInstalled = (): boolean => existsSync(BINARY) || commandExists(BINARY)

/** What a PgBouncer is started with. */
export interface PgBouncerOptions {
  /** Its [databases] section: name → connection string (`host=… port=… dbname=…`). */
  readonly databases: Readonly<Record<string, string>>
  /** The user its auth_file lets in without a password (auth_type trust); its admin too. */
  readonly admin: string
  /** [pgbouncer] settings over the defaults (transaction mode, trust, 127.0.0.1). */
  readonly settings?: Readonly<Record<string, string | number>>
}

/** A PgBouncer process of the caller's own, on a free port of 127.0.0.1. */
export interface PgBouncer {
  readonly port: number
  /** `postgres://user@127.0.0.1:port/database` */
  url(user: string, database: string): string
  /** What it has logged so far. */
  log(): string
  /** Ends the process (SIGTERM: PgBouncer's immediate shutdown; SIGKILL: a crash). */
  stop(signal?: 'SIGTERM' | 'SIGKILL'): Promise<void>
  /** Starts it again on the same port with the same settings: a pooler restart. */
  start(): Promise<void>
}

const running = new Set<ChildProcess>()
const directories = new Set<string>()

/**
 * Starts PgBouncer with a generated ini in a directory of its own: pool_mode transaction,
 * auth_type trust, no startup parameter ignored (one a client sends is refused, not
 * dropped), then `settings`. It refuses to run as root, so as root it runs as postgres.
 */
export async function startPgBouncer({
  databases,
  admin,
  settings = {},
}: PgBouncerOptions): Promise<PgBouncer> {
  const port = await freePort()
  const dir = await mkdtemp(join(tmpdir(), 'tasklane-pgbouncer-'))
  directories.add(dir)
  const ini = join(dir, 'pgbouncer.ini')
  const entries = (section: Readonly<Record<string, string | number>>) =>
    Object.entries(section).map(([name, value]) => `${name} = ${value}`)
  const lines = [
    '[databases]',
    ...entries(databases),
    '[pgbouncer]',
    ...entries({
      listen_addr: '127.0.0.1',
      listen_port: port,
      unix_socket_dir: '',
      auth_type: 'trust',
      auth_file: join(dir, 'users.txt'),
      admin_users: admin,
      pool_mode: 'transaction',
      ...settings,
    }),
  ]
  await writeFile(ini, `${lines.join('\n')}\n`)
  await writeFile(join(dir, 'users.txt'), `"${admin}" ""\n`)
  // Run as postgres, PgBouncer must read these.
  await chmod(dir, 0o755)

  let child: ChildProcess | undefined
  let output = ''
  const start = async () => {
    const asRoot = process.getuid?.() === 0
    const pgbouncer = spawn(BINARY, [...(asRoot ? ['-u', 'postgres'] : []), ini], {
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    child = pgbouncer
    running.add(pgbouncer)
    pgbouncer.once('exit', () => running.delete(pgbouncer))
    // Only this process's output: after a restart the last one's says it listened too.
    const from = output.length
    const ready = new Promise<void>((resolve, reject) => {
      const read = (chunk: string) => {
        output += chunk
        if (output.includes(`listening on 127.0.0.1:${port}`, from)) resolve()
      }
      pgbouncer.stdout?.setEncoding('utf8').on('data', read)
      pgbouncer.stderr?.setEncoding('utf8').on('data', read)
      pgbouncer.once('exit', (code) => reject(new Error(`pgbouncer exited (${code}): ${output}`)))
    })
    await within(ready, 10_000, `pgbouncer on port ${port} ready`)
  }
  const stop = async (signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM') => {
    const pgbouncer = child
    if (!pgbouncer || pgbouncer.exitCode !== null || pgbouncer.signalCode !== null) return
    const exited = new Promise((resolve) => pgbouncer.once('exit', resolve))
    pgbouncer.kill(signal)
    await within(exited, 10_000, 'pgbouncer exit')
  }
  await start()
  return {
    port,
    url: (user, database) =>
      `postgres://${encodeURIComponent(user)}@127.0.0.1:${port}/${encodeURIComponent(database)}`,
    log: () => output,
    stop,
    start,
  }
}

/** Kills every PgBouncer started here and removes their files. */
export async function stopAllPgBouncers(): Promise<void> {
  const exits = [...running].map(
    (child) => new Promise((resolve) => child.once('exit', resolve).kill('SIGKILL')),
  )
  await Promise.all(exits)
  for (const dir of directories) await rm(dir, { recursive: true, force: true })
  directories.clear()
}
