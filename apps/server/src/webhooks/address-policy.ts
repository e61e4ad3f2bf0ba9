import { BlockList, isIP } from 'node:net'

// Where a webhook may not post: the server's own network. A URL's host is checked when the
// webhook is made (an address written in it) and again when connecting, on the address DNS
// gave, so a name that resolves to 127.0.0.1 is refused too. WEBHOOK_ALLOWED_HOSTS lets
// named host:port pairs through (a receiver on the same machine, in tests and on-premises).

const REFUSED = new BlockList()
for (const [network, bits] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // protocol assignments
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  REFUSED.addSubnet(network, bits, 'ipv4')
}
for (const [network, bits] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const) {
  REFUSED.addSubnet(network, bits, 'ipv6')
}

/** An IPv4 address written inside IPv6 (`::ffff:127.0.0.1`, `::127.0.0.1`), else undefined. */
function embeddedIpv4(address: string): string | undefined {
  const dotted = /^::(ffff:)?(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[2]
  if (dotted !== undefined) return dotted
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address)
  if (hex === null) return undefined
  const high = Number.parseInt(hex[1] as string, 16)
  const low = Number.parseInt(hex[2] as string, 16)
  return [high >> 8, high & 255, low >> 8, low & 255].join('.')
}

/** Whether a webhook may not reach this IP address: private, loopback, link-local, multicast. */
export function isRefusedAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '')
  const version = isIP(bare)
  if (version === 4) return REFUSED.check(bare, 'ipv4')
  if (version !== 6) return true
  const v4 = embeddedIpv4(bare)
  if (v4 !== undefined) return REFUSED.check(v4, 'ipv4')
  return REFUSED.check(bare, 'ipv6')
}

/** `host:port` of a URL, its port filled in from the scheme: what WEBHOOK_ALLOWED_HOSTS lists. */
export function hostPortOf(url: URL): string {
  const port = url.port === '' ? (url.protocol === 'https:' ? '443' : '80') : url.port
  return `${url.hostname.toLowerCase()}:${port}`
}

/** The host:port pairs a webhook may reach whatever their address. */
export class AllowedHosts {
  readonly #hosts: ReadonlySet<string>

  constructor(hosts: readonly string[]) {
    this.#hosts = new Set(hosts.map((host) => host.trim().toLowerCase()).filter(Boolean))
  }

  /** Whether the URL's host and port are listed. */
  allows(url: URL): boolean {
    return this.#hosts.has(hostPortOf(url))
  }
}

/**
 * Why a webhook's URL is refused when it is made, or undefined: not http(s), credentials in
 * it, or an address literal that is refused. Names are checked again when connecting.
 */
export function refusalOf(text: string, allowed: AllowedHosts): string | undefined {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return 'url must be an absolute http or https URL.'
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return 'url must be an http or https URL.'
  }
  if (url.username !== '' || url.password !== '') {
    return 'url must not carry a user name or password.'
  }
  if (allowed.allows(url)) return undefined
  const host = url.hostname.replace(/^\[|\]$/g, '')
  if (isIP(host) !== 0 && isRefusedAddress(host)) {
    return `url must not name a private, loopback, link-local or multicast address (${host}); list it in WEBHOOK_ALLOWED_HOSTS to allow it.`
  }
  return undefined
}
