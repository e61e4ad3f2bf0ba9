import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

/** A receiver on 127.0.0.1 that answers every request 204 at once and counts them. */
export async function webhookReceiver(): Promise<{
  port: number
  received(): number
  close(): Promise<void>
}> {
  let received = 0
  const server = createServer((request, response) => {
    request.resume()
    request.on('end', () => {
      received++
      response.writeHead(204).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    port: (server.address() as AddressInfo).port,
    received: () => received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** One delivery figure: `webhooks` webhooks, each sent the same `changes` changes. */
export interface DeliveryFigures {
  webhooks: number
  changes: number
  seconds: number
  /** Acknowledged deliveries a second: webhooks × changes ÷ seconds. */
  perSecond: number
  /** Requests the receiver answered (at least webhooks × changes: delivery is at least once). */
  received: number
}

/** Deliveries a second of `webhooks` × `changes` acknowledged in `seconds`. */
export function deliveryRate(webhooks: number, changes: number, seconds: number): number {
  return seconds > 0 ? (webhooks * changes) / seconds : Number.NaN
}

const JSON_HEADERS = { 'content-type': 'application/json' }

async function ok(response: Response, what: string): Promise<Response> {
  if (!response.ok) throw new Error(`${what} answered ${response.status}: ${await response.text()}`)
  return response
}

/**
 * Creates `changes` tasks (10 at a time), then `webhooks` webhooks to the receiver, each
 * starting after the seq before those tasks; the clock runs from the first webhook's
 * creation until every webhook's cursor (GET /webhooks, every 20 ms) reaches the newest
 * seq: a backlog of `changes` changes, delivered to each webhook. The webhooks are deleted
 * afterwards. Bounded by `timeoutMs`.
 */
export async function measureDeliveries(
  url: string,
  receiver: { port: number; received(): number },
  { webhooks, changes, timeoutMs }: { webhooks: number; changes: number; timeoutMs: number },
): Promise<DeliveryFigures> {
  const seqOf = (response: Response) => Number(response.headers.get('tasklane-seq'))
  const probe = await ok(
    await fetch(`${url}/task`, {
      method: 'POST',
      headers: JSON_HEADERS,
      body: JSON.stringify({ name: 'before the backlog' }),
    }),
    'POST /task',
  )
  const after = seqOf(probe)
  let newest = after
  let next = 0
  const create = async () => {
    while (next < changes) {
      next++
      const response = await ok(
        await fetch(`${url}/task`, {
          method: 'POST',
          headers: JSON_HEADERS,
          body: JSON.stringify({ name: `webhook change ${next}` }),
        }),
        'POST /task',
      )
      newest = Math.max(newest, seqOf(response))
    }
  }
  await Promise.all(Array.from({ length: 10 }, create))
  const before = receiver.received()
  const started = performance.now()
  const ids: number[] = []
  for (let i = 0; i < webhooks; i++) {
    const response = await ok(
      await fetch(`${url}/webhooks`, {
        method: 'POST',
        headers: JSON_HEADERS,
        body: JSON.stringify({ url: `http://127.0.0.1:${receiver.port}/hook/${i}`, after }),
      }),
      'POST /webhooks',
    )
    ids.push(((await response.json()) as { id: number }).id)
  }
  const mine = new Set(ids)
  for (;;) {
    const listed = (await (await ok(await fetch(`${url}/webhooks`), 'GET /webhooks')).json()) as {
      id: number
      cursor: number
    }[]
    const behind = listed.filter((hook) => mine.has(hook.id) && hook.cursor < newest)
    if (behind.length === 0) break
    if (performance.now() - started > timeoutMs) {
      throw new Error(
        `webhooks: ${behind.length} of ${webhooks} still behind seq ${newest} after ${timeoutMs / 1000} s`,
      )
    }
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  const seconds = (performance.now() - started) / 1000
  const received = receiver.received() - before
  for (const id of ids)
    await ok(await fetch(`${url}/webhooks/${id}`, { method: 'DELETE' }), 'DELETE /webhooks')
  return {
    webhooks,
    changes,
    seconds,
    perSecond: deliveryRate(webhooks, changes, seconds),
    received,
  }
}
