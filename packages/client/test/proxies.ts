import { createServer, request, type Server } from 'node:http'
import { type AddressInfo, connect, createServer as createNetServer, type Socket } from 'node:net'

/**
 * A proxy in front of the real server that forwards every request but, for the first
 * `lose` ones, cuts the connection instead of passing the response back: the server has
 * done the work, the client never hears of it. Records the Idempotency-Key of each request.
 */
export async function lossyProxy(target: string, lose: number) {
  const keys: (string | undefined)[] = []
  const proxy = createServer((req, res) => {
    keys.push(req.headers['idempotency-key'] as string | undefined)
    const drop = keys.length <= lose
    const upstream = request(`${target}${req.url}`, { method: req.method, headers: req.headers })
    upstream.on('response', (answer) => {
      if (drop) {
        answer.resume()
        answer.on('end', () => res.socket?.destroy())
        return
      }
      res.writeHead(answer.statusCode ?? 502, answer.headers)
      answer.pipe(res)
    })
    req.pipe(upstream)
  })
  return { ...(await listening(proxy)), keys }
}

/** Listens on a free port of 127.0.0.1: its URL, and how to close it with its connections. */
export async function listening(proxy: Server) {
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
  const { port } = proxy.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => {
      proxy.closeAllConnections()
      proxy.close()
    },
  }
}

/**
 * A proxy in front of the real server that forwards every request and records its
 * Last-Event-ID, but cuts the first response short: after the first event of a feed, or
 * after `cutAfter` bytes of anything else. Data reached the client; the rest never does.
 */
export async function cuttingProxy(target: string, cutAfter = Number.POSITIVE_INFINITY) {
  const lastEventIds: (string | undefined)[] = []
  const proxy = createServer((req, res) => {
    lastEventIds.push(req.headers['last-event-id'] as string | undefined)
    const cut = lastEventIds.length === 1
    const upstream = request(`${target}${req.url}`, { method: req.method, headers: req.headers })
    upstream.on('response', (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers)
      let forwarded = 0
      let done = false
      // Ends the connection once what was written has gone out, without the response's end.
      const hangUp = () => {
        done = true
        answer.destroy()
        res.socket?.end()
      }
      answer.on('data', (chunk: Buffer) => {
        if (done) return
        if (cut && forwarded + chunk.length > cutAfter) {
          res.write(chunk.subarray(0, cutAfter - forwarded))
          return hangUp()
        }
        forwarded += chunk.length
        res.write(chunk)
        if (cut && chunk.toString('utf8').includes('event: ')) hangUp()
      })
      answer.on('end', () => res.end())
    })
    upstream.on('error', () => res.destroy())
    req.pipe(upstream)
  })
  return { ...(await listening(proxy)), lastEventIds }
}

/**
 * A TCP proxy on 127.0.0.1 in front of `port` that can cut every connection through it at
 * once (`cut`), as a network failure would: the client sees its streams end mid-way.
 */
export async function tcpProxy(port: number) {
  const sockets = new Set<Socket>()
  const proxy = createNetServer((client) => {
    const upstream = connect(port, '127.0.0.1')
    for (const socket of [client, upstream]) {
      sockets.add(socket)
      socket.on('close', () => sockets.delete(socket))
      socket.on('error', () => {})
    }
    client.pipe(upstream).pipe(client)
    client.on('close', () => upstream.destroy())
    upstream.on('close', () => client.destroy())
  })
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
  const { port: own } = proxy.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${own}`,
    /** Connections open now (each a client's and its upstream's socket). */
    get connections() {
      return sockets.size / 2
    },
    cut() {
      for (const socket of sockets) socket.destroy()
    },
    close() {
      this.cut()
      proxy.close()
    },
  }
}
