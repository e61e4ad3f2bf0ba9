import { connect, createServer, type Socket } from 'node:net'

/**
 * A TCP proxy in front of a server (PostgreSQL) that can be made to stall: it stops
 * forwarding in both directions but keeps every socket open, as a frozen or
 * unreachable host looks to its clients, without stopping the shared server itself.
 */
export interface StallProxy {
  readonly port: number
  /** `url` with its host and port replaced by the proxy's. */
  through(url: string): string
  /** Stops forwarding; what arrives meanwhile is held back. */
  stall(): void
  /** Forwards again, what was held back first. */
  resume(): void
  /** Destroys every socket and stops listening. */
  close(): Promise<void>
}

/** Starts a StallProxy on 127.0.0.1 (a free port) to `host`:`port`. */
export async function startStallProxy(host: string, port: number): Promise<StallProxy> {
  let stalled = false
  const sockets = new Set<Socket>()
  const held: (() => void)[] = []

  const forward = (from: Socket, to: Socket) => {
    from.on('data', (chunk) => {
      if (stalled) held.push(() => to.write(chunk))
      else to.write(chunk)
    })
    from.on('end', () => {
      if (stalled) held.push(() => to.end())
      else to.end()
    })
    from.on('error', () => to.destroy())
    from.on('close', () => sockets.delete(from))
  }

  const server = createServer((client) => {
    const upstream = connect(port, host)
    sockets.add(client)
    sockets.add(upstream)
    forward(client, upstream)
    forward(upstream, client)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  if (address === null || typeof address === 'string') throw new Error('no TCP address')
  return {
    port: address.port,
    through(url) {
      const parsed = new URL(url)
      parsed.hostname = '127.0.0.1'
      parsed.port = String(address.port)
      return parsed.toString()
    },
    stall() {
      stalled = true
    },
    resume() {
      stalled = false
      for (const send of held.splice(0)) send()
    },
    async close() {
      for (const socket of sockets) socket.destroy()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}
