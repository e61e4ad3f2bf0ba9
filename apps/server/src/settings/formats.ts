// The string formats the settings schema names (`origin`, `host`, `host-port`, `proxy`), registered with
// TypeBox once, on import.
import { isIP } from 'node:net'
import { FormatRegistry } from '@sinclair/typebox'

FormatRegistry.Set('origin', (value) => {
  if (value === '*') return true
  try {
    return new URL(value).origin === value
  } catch {
    return false
  }
})

/** `*`, or a host name or address, with an optional port: `tasks.example.com`, `[::1]:3000`. */
FormatRegistry.Set('host', (value) =>
  /^(\*|[a-z0-9]([a-z0-9.-]*[a-z0-9])?\.?|\[[0-9a-f:.]+\])(:\d{1,5})?$/i.test(value),
)

/** A host name or address and a port: `hooks.internal:8080`, `[::1]:9000`. */
FormatRegistry.Set('host-port', (value) =>
  /^([a-z0-9]([a-z0-9.-]*[a-z0-9])?|\[[0-9a-f:.]+\]):\d{1,5}$/i.test(value),
)

/** Proxy-addr's words for address ranges, as TRUST_PROXY takes them. */
const PROXY_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal'])

/** A hop count, an address, an address range (CIDR) or one of PROXY_RANGES. */
FormatRegistry.Set('proxy', (value) => {
  if (/^\d+$/.test(value) || PROXY_RANGES.has(value)) return true
  const [address = '', bits, ...rest] = value.split('/')
  const version = isIP(address)
  if (version === 0 || rest.length > 0) return false
  return bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (version === 4 ? 32 : 128))
})
