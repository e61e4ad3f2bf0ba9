import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { launch, type ServerProcess } from '@tasklane/testing/launch'

const NODE = process.execPath
const VERDACCIO = resolve(import.meta.dirname, '../node_modules/verdaccio/bin/verdaccio')

/** A Verdaccio registry on a loopback port, with its storage and an account in `dir`. */
export interface Registry {
  /** `http://127.0.0.1:NNNN/` */
  readonly url: string
  /**
   * An npm user configuration for it: the caller's own (~/.npmrc: nodedir and the like),
   * plus `@tasklane` packages from this registry and the account's token to publish them.
   */
  readonly npmrc: string
  readonly server: ServerProcess
}

/**
 * Starts Verdaccio with nothing in it and no uplink: `@tasklane/*` packages exist only once
 * published to it; everything else still comes from the usual registry (the npmrc sends
 * only the scope here).
 */
export async function startVerdaccio(dir: string): Promise<Registry> {
  await mkdir(join(dir, 'storage'), { recursive: true })
  const config = join(dir, 'config.yaml')
  await writeFile(
    config,
    `storage: ${join(dir, 'storage')}
auth:
  htpasswd:
    file: ${join(dir, 'htpasswd')}
uplinks: {}
packages:
  '@tasklane/*':
    access: $all
    publish: $authenticated
log: { type: stdout, format: json, level: info }
`,
  )
  // launch() picks the free port and passes it as PORT; the shell hands it to --listen.
  const server = await launch({
    command: 'sh',
    args: [
      '-c',
      'exec "$0" "$1" --config "$2" --listen "127.0.0.1:$PORT"',
      NODE,
      VERDACCIO,
      config,
    ],
    readyPath: '/-/ping',
    timeoutMs: 60_000,
  })
  const url = `${server.url}/`
  const response = await fetch(`${url}-/user/org.couchdb.user:tasklane`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'tasklane', password: 'release-test' }),
  })
  const { token } = (await response.json()) as { token?: string }
  if (response.status !== 201 || token === undefined) {
    throw new Error(`Verdaccio refused the test account: ${response.status}`)
  }
  const npmrc = join(dir, 'npmrc')
  const host = url.replace(/^http:/, '')
  await writeFile(
    npmrc,
    [
      userNpmrc(),
      `@tasklane:registry=${url}`,
      `${host}:_authToken=${token}`,
      'audit=false',
      'fund=false',
      'update-notifier=false',
      '',
    ].join('\n'),
  )
  return { url, npmrc, server }
}

/** The caller's own npm user configuration, kept: e.g. nodedir, for compiling native modules. */
function userNpmrc(): string {
  const path = execFileSync('npm', ['config', 'get', 'userconfig'], { encoding: 'utf8' }).trim()
  return existsSync(path) ? readFileSync(path, 'utf8') : ''
}
