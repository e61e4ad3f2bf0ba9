// A webhook receiver on 127.0.0.1: a real HTTP server that keeps every request it gets and
// answers as the test says (a status, after a delay), counting requests in flight at once.
import { createHmac } from 'node:crypto'
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/** One request the receiver got. */
export interface Received {
  readonly headers: IncomingHttpHeaders
  readonly body: string
  /** The body as JSON. */
  readonly event: {
    type: string
    seq: number
    timestamp: string
    actor: string
    data: Record<string, unknown>
    changes: Record<string, unknown>
  }
  /** The status it was answered with. */
  readonly status: number
}

/** How the receiver answers its `n`-th request (0: the first): a status, after `delayMs`. */
export type Answer = (request: { n: number; event: Received['event'] }) => {
  status: number
  delayMs?: number
}

export class WebhookReceiver {
  readonly received: Received[] = []
  /** Most requests it was answering at once. */
  maxInFlight = 0
  answer: Answer = () => ({ status: 204 })
  #inFlight = 0
  readonly #server: Server

  private constructor(server: Server) {
    this.#server = server
    server.on('request', (request, response) => {
      const chunks: Buffer[] = []
      request.on('data', (chunk: Buffer) => chunks.push(chunk))
      request.on('end', () => {
        this.#inFlight++
        this.maxInFlight = Math.max(this.maxInFlight, this.#inFlight)
        const body = Buffer.concat(chunks).toString('utf8')
        const event = JSON.parse(body)
        const { status, delayMs = 0 } = this.answer({ n: this.received.length, event })
        this.received.push({ headers: request.headers, body, event, status })
        setTimeout(() => {
          this.#inFlight--
          response.writeHead(status).end()
        }, delayMs)
      })
    })
  }

  /** A receiver listening on `port` (0: any free one). */
  static async start(port = 0): Promise<WebhookReceiver> {
    const server = createServer()
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
    return new WebhookReceiver(server)
  }

  get port(): number {
    return (this.#server.address() as AddressInfo).port
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/hook`
  }

  /** The events it acknowledged (a 2xx), in the order they came. */
  acknowledged(): Received['event'][] {
    return this.received.filter((r) => r.status >= 200 && r.status < 300).map((r) => r.event)
  }

  close(): Promise<void> {
    this.#server.closeAllConnections()
    return new Promise((resolve) => this.#server.close(() => resolve()))
  }
}

/** The signature a Standard Webhooks receiver computes: `v1,<base64 HMAC-SHA256>`. */
export function expectedSignature(secret: string, received: Received): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64')
  const id = received.headers['webhook-id']
  const timestamp = received.headers['webhook-timestamp']
  const mac = createHmac('sha256', key).update(`${id}.${timestamp}.${received.body}`)
  return `v1,${mac.digest('base64')}`
}

/** A free port on 127.0.0.1 with nothing listening on it (for refused connections). */
export async function closedPort(): Promise<number> {
  const receiver = await WebhookReceiver.start()
  const { port } = receiver
  await receiver.close()
  return port
}
