// LiveTasks against a fake fetch: how it meets a reset of the feed and a credential that
// stops working, which a real server cannot be made to send on demand.
import { describe, expect, it } from 'vitest'
import { ApiError, createClient, type Task } from '../src/index.js'
import { LiveTasks } from '../src/live.js'
import { error, fast, json, life, recordingFetch } from './fake-fetch.js'

const SSE = 'text/event-stream'

const task = (id: number, listId = 2): Task => ({ ...life, id, listId, name: `task ${id}` })

/** A listing read at `seq`. */
const listing = (tasks: Task[], seq: number) => json(tasks, 200, { 'tasklane-seq': `${seq}` })

/** A feed that sends `chunks`, then stays open until the request's signal aborts it. */
function openFeed(chunks: string[], init: RequestInit | undefined) {
  const encoder = new TextEncoder()
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk))
      init?.signal?.addEventListener('abort', () => controller.error(init.signal?.reason))
    },
  })
  return new Response(body, { headers: { 'content-type': SSE } })
}

/** Resolves once `done(live)` holds, checked now and after each notification. */
const until = (live: LiveTasks, done: (live: LiveTasks) => boolean) =>
  new Promise<void>((resolve) => {
    const check = () => {
      if (done(live)) {
        off()
        resolve()
      }
    }
    const off = live.subscribe(check)
    check()
  })

describe('LiveTasks', () => {
  it('on a reset, lists again and follows the feed from the new listing, exact again', async () => {
    const { calls, fetch } = recordingFetch((call, _url, init) => {
      if (call === 0) return listing([task(1)], 5)
      if (call === 1) {
        return openFeed(
          [
            `id: 6\nevent: created\ndata: ${JSON.stringify(task(4))}\n\n: seq 6\n\n`,
            // The caller lost list 2's task 1 and gained task 7: no event could say so.
            'event: reset\ndata: {"seq":8}\n\n',
          ],
          init,
        )
      }
      if (call === 2) return listing([task(4), task(7)], 9)
      return openFeed([': seq 9\n\n'], init)
    })
    const client = createClient({ baseUrl: 'http://h', fetch, retry: fast })
    const live = new LiveTasks(client, { list: 2 })
    const seen: number[][] = []
    live.subscribe(() => seen.push(live.tasks.map((each) => each.id)))
    try {
      await until(live, () => live.caughtUp && live.seq === 9)
      expect(live.tasks).toEqual([task(4), task(7)])
      expect(calls.map((c) => c.url)).toEqual([
        'http://h/tasks?list=2',
        'http://h/tasks/events?after=5&list=2',
        'http://h/tasks?list=2',
        'http://h/tasks/events?after=9&list=2',
      ])
      // Its listeners saw the copy before the reset, then the new listing.
      expect(seen).toContainEqual([1, 4])
      expect(seen.at(-1)).toEqual([4, 7])
      expect(live.error).toBeUndefined()
    } finally {
      live.close()
    }
  })

  it('stops with the ApiError when the feed answers 401, the token asked for again included', async () => {
    let issued = 0
    const { calls, fetch } = recordingFetch((call) =>
      call === 0 ? listing([task(1)], 5) : error(401, { 'www-authenticate': 'Bearer' }),
    )
    const client = createClient({
      baseUrl: 'http://h',
      fetch,
      retry: fast,
      token: () => `t${++issued}`,
    })
    const live = new LiveTasks(client)
    let told = 0
    live.subscribe(() => told++)
    await until(live, () => live.closed)
    expect(live.error).toBeInstanceOf(ApiError)
    expect(live.error).toMatchObject({ status: 401 })
    expect(told).toBeGreaterThan(0)
    // The listing, the feed, and the feed once more with a token asked for again: no more.
    expect(calls.map((c) => c.headers.authorization)).toEqual([
      'Bearer t1',
      'Bearer t2',
      'Bearer t3',
    ])
    expect(live.tasks).toEqual([task(1)])
  })
})
