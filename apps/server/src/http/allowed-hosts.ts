import { isIP } from 'node:net'

/** The Host values a server answers to: names, each with or without a port. */
export interface AllowedHosts {
  /** As configured, lower case: `tasks.example.com`, `[::1]`, `10.0.0.5:3000`. */
  readonly names: readonly string[]
}

/** The names of the loopback interface, which a page elsewhere can never claim as its own. */
const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]']

/** True for an address (or `localhost`) that only this machine can reach. */
export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase()
  return (
    bare === 'localhost' ||
    bare === '::1' ||
    (isIP(bare) === 4 && bare.startsWith('127.')) ||
    bare === '::ffff:127.0.0.1'
  )
}

/** `name` and `port` of a Host value (`[::1]:3000` → `[::1]`, `3000`); the name in lower case without a final dot. */
function split(host: string): { name: string; port: string | undefined } {
  const match = /^(\[[^\]]*\]|[^:]*)(?::(\d*))?$/.exec(host.trim().toLowerCase())
  const name = (match?.[1] ?? host).replace(/\.$/, '')
  return { name, port: match?.[2] || undefined }
}

/**
 * What ALLOWED_HOSTS means for a server bound to `bindHost`: the names it lists (`*`: any
 * host); unset, the loopback names (and HOST itself) when the server listens on loopback
 * only, since no other name can then be meant; else any host. Undefined: no check.
 */
export function allowedHostsFor(
  setting: readonly string[],
  bindHost: string,
): AllowedHosts | undefined {
  if (setting.includes('*')) return undefined
  if (setting.length > 0) return { names: setting.map((name) => name.toLowerCase()) }
  if (!isLoopback(bindHost)) return undefined
  const own = isIP(bindHost) === 6 ? `[${bindHost}]` : bindHost.toLowerCase()
  return { names: [...new Set([...LOOPBACK_NAMES, own])] }
}

/**
 * Whether a Host value is one of `allowed`: the same name, and the same port when the
 * allowed entry names one. The port is no defence against DNS rebinding (the name is),
 * and a proxy in front may send the name without it (nginx's `$host`).
 */
export function hostAllowed(allowed: AllowedHosts, host: string): boolean {
  const given = split(host)
  return allowed.names.some((entry) => {
    const wanted = split(entry)
    return wanted.name === given.name && (wanted.port === undefined || wanted.port === given.port)
  })
}
