import { createServer, type IncomingHttpHeaders, request } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'

/** A request the proxy passed on. */
export interface ProxiedRequest {
  readonly method: string
  readonly path: string
  readonly headers: IncomingHttpHeaders
}

/** An HTTP proxy in front of a real server, that can break connections as a network does. */
export interface FlakyProxy {
  readonly url: string
  /** Every request passed on, in the order they came. */
  readonly requests: ProxiedRequest[]
  /** Drops every connection open now (a watch's stream among them). */
  cutAll(): void
  close(): Promise<void>
}

/**
 * Passes every request to `target` and its response back, streamed. When `dropResponse`
 * says so, the server still gets (and commits) the request, but the connection is closed
 * before its response: what a client sees when a network fails at the worst moment.
 */
export async function startFlakyProxy(
  target: string,
  dropResponse: (request: ProxiedRequest) => boolean = () => false,
): Promise<FlakyProxy> {
  const requests: ProxiedRequest[] = []
  const sockets = new Set<Socket>()
  const server = createServer((incoming, outgoing) => {
    const seen = {
      method: incoming.method ?? 'GET',
      path: incoming.url ?? '/',
      headers: incoming.headers,
    }
    requests.push(seen)
    const upstream = request(new URL(seen.path, target), {
      method: seen.method,
      headers: incoming.headers,
    })
    upstream.once('response', (response) => {
      if (dropResponse(seen)) {
        response.resume()
        response.once('end', () => incoming.socket.destroy())
        return
      }
      outgoing.writeHead(response.statusCode ?? 502, response.headers)
      // Each event of a stream goes on as it comes.
      outgoing.flushHeaders()
      response.pipe(outgoing)
    })
    upstream.once('error', () => incoming.socket.destroy())
    incoming.pipe(upstream)
  })
  server.on('connection', (socket: Socket) => {
    sockets.add(socket)
    socket.once('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    cutAll() {
      for (const socket of sockets) socket.destroy()
    },
    async close() {
      for (const socket of sockets) socket.destroy()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}
