import { Agent, type IncomingMessage, request } from 'node:http'
import { memoryOf } from './processes.js'
import { percentile, sorted } from './stats.js'

const MB = 1024 * 1024

/** What the fan-out run measured. */
export interface FanOutResult {
  subscribers: number
  tasks: number
  /** Milliseconds from a create's 201 (as this process saw it) to the event at a subscriber. */
  p50Ms: number
  p99Ms: number
  maxMs: number
  /** Server RSS with every subscriber connected and idle, over the RSS before, per subscriber. */
  kbPerSubscriber: number
  rssBeforeMB: number
  rssSubscribedMB: number
}

/**
 * Every delivery's delay: for each subscriber and each acknowledged task, when the event
 * arrived minus when the 201 did. An event that beat its own 201 (the server writes the
 * feed as soon as the commit is known, the response a moment later) counts as 0.
 */
export function deliveryDelays(
  acknowledged: ReadonlyMap<number, number>,
  arrivals: readonly ReadonlyMap<number, number>[],
): number[] {
  const delays: number[] = []
  for (const received of arrivals) {
    for (const [id, at] of acknowledged) {
      const arrived = received.get(id)
      if (arrived === undefined) throw new Error(`task ${id} never reached a subscriber`)
      delays.push(Math.max(0, arrived - at))
    }
  }
  return sorted(delays)
}

/** Opens GET /tasks/events and records when each event (by id) arrives. */
function subscribe(url: string): Promise<{ arrivals: Map<number, number>; close(): void }> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/tasks/events`, { agent: false }, (response: IncomingMessage) => {
      if (response.statusCode !== 200) {
        reject(new Error(`GET /tasks/events answered ${response.statusCode}`))
        return
      }
      const arrivals = new Map<number, number>()
      // A line may be split between two chunks: only whole lines are read.
      let rest = ''
      response.setEncoding('utf8')
      response.on('data', (chunk: string) => {
        const now = performance.now()
        const text = rest + chunk
        const end = text.lastIndexOf('\n') + 1
        rest = text.slice(end)
        for (const match of text.slice(0, end).matchAll(/^id: (\d+)$/gm)) {
          arrivals.set(Number(match[1]), now)
        }
      })
      resolve({ arrivals, close: () => req.destroy() })
    })
    req.on('error', reject)
    req.end()
  })
}

const agent = new Agent({ keepAlive: true, maxSockets: 1 })

/** Creates one task; resolves with its id when the 201 has fully arrived. */
function create(url: string, name: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({ name })
    const req = request(
      `${url}/task`,
      { method: 'POST', agent, headers: { 'content-type': 'application/json' } },
      (response) => {
        let text = ''
        response.setEncoding('utf8')
        response.on('data', (chunk: string) => {
          text += chunk
        })
        response.on('end', () =>
          response.statusCode === 201
            ? resolve((JSON.parse(text) as { id: number }).id)
            : reject(new Error(`POST /task answered ${response.statusCode}: ${text}`)),
        )
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * The change feed's fan-out on one server process: `subscribers` connections to GET
 * /tasks/events, then `tasks` creates one after another (`gapMs` apart, so that each
 * fan-out is measured on its own rather than queued behind the last); every delivery's
 * delay from the 201, and the server's memory per idle subscriber.
 */
export async function fanOut(
  url: string,
  pid: number,
  { subscribers, tasks, gapMs = 50 }: { subscribers: number; tasks: number; gapMs?: number },
): Promise<FanOutResult> {
  const rssBefore = memoryOf(pid).rss
  const feeds: Awaited<ReturnType<typeof subscribe>>[] = []
  try {
    for (let i = 0; i < subscribers; i += 50) {
      const batch = Math.min(50, subscribers - i)
      feeds.push(...(await Promise.all(Array.from({ length: batch }, () => subscribe(url)))))
    }
    // A few tasks through every subscriber first: buffers allocated, code compiled.
    let warmup = 0
    for (let i = 0; i < 10; i++) {
      warmup = await create(url, `fan-out warm-up ${i}`)
      await sleep(gapMs)
    }
    await until(() => feeds.every((feed) => feed.arrivals.has(warmup)), 30_000)
    await sleep(500)
    const rssSubscribed = memoryOf(pid).rss

    const acknowledged = new Map<number, number>()
    for (let i = 0; i < tasks; i++) {
      const id = await create(url, `fan-out ${i}`)
      acknowledged.set(id, performance.now())
      await sleep(gapMs)
    }
    const last = Math.max(...acknowledged.keys())
    await until(() => feeds.every((feed) => feed.arrivals.has(last)), 30_000)
    const delays = deliveryDelays(
      acknowledged,
      feeds.map((feed) => feed.arrivals),
    )
    return {
      subscribers,
      tasks,
      p50Ms: percentile(delays, 50),
      p99Ms: percentile(delays, 99),
      maxMs: delays.at(-1) ?? Number.NaN,
      kbPerSubscriber: (rssSubscribed - rssBefore) / 1024 / subscribers,
      rssBeforeMB: rssBefore / MB,
      rssSubscribedMB: rssSubscribed / MB,
    }
  } finally {
    for (const feed of feeds) feed.close()
  }
}

async function until(done: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!done()) {
    if (Date.now() > deadline) throw new Error('the subscribers did not receive every task in time')
    await sleep(10)
  }
}
