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
  ['fec0::', 10], // site-local (deprecated, still private)
  ['64:ff9b:1::', 48], // NAT64 for local networks
  ['100::', 64], // discard
  ['ff00::', 8], // multicast
] as const) {
  REFUSED.addSubnet(network, bits, 'ipv6')
}

/** The eight 16-bit groups of an IPv6 address (`isIP` said it is one), a dotted tail included. */
function groupsOf(address: string): number[] {
  let text = address
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text)
  if (dotted !== null) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number]
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`
  }
  const [head = '', tail] = text.split('::')
  const parse = (part: string) =>
    part === '' ? [] : part.split(':').map((g) => Number.parseInt(g, 16))
  const before = parse(head)
  const after = tail === undefined ? [] : parse(tail)
  return [...before, ...Array(8 - before.length - after.length).fill(0), ...after]
}

const ipv4Of = (high: number, low: number) => [high >> 8, high & 255, low >> 8, low & 255].join('.')

/**
 * The IPv4 address an IPv6 address stands for, else undefined: IPv4-compatible (`::a.b.c.d`,
 * which URLs write `::7f00:1`), IPv4-mapped (`::ffff:a.b.c.d`), IPv4-translated
 * (`::ffff:0:a.b.c.d`), NAT64 (`64:ff9b::a.b.c.d`) and 6to4 (`2002:AABB:CCDD::`).
 */
function embeddedIpv4(address: string): string | undefined {
  const g = groupsOf(address) as [number, number, number, number, number, number, number, number]
  if (g[0] === 0x2002) return ipv4Of(g[1], g[2])
  const zeros = (from: number, to: number) => g.slice(from, to).every((group) => group === 0)
  const compatible = zeros(0, 6)
  const mapped = zeros(0, 5) && g[5] === 0xffff
  const translated = zeros(0, 4) && g[4] === 0xffff && g[5] === 0
  const nat64 = g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)
  // `::` and `::1` are IPv6's own (unspecified, loopback): the block list has them.
  if (compatible && g[6] === 0) return undefined
  return compatible || mapped || translated || nat64 ? ipv4Of(g[6], g[7]) : undefined
}

/** Whether a webhook may not reach this IP address: private, loopback, link-local, multicast. */
export function isRefusedAddress(address: string): boolean {
  // Brackets of a URL's host, and a zone (`fe80::1%eth0`): the address is what is left.
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '')
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
