import { createClient } from '@tasklane/client'
import { median } from './stats.js'

/**
 * Median milliseconds of `client.listTasks(20)` and of a raw `fetch` of the same request
 * (parsed as JSON too), in this process, interleaved in blocks of 100.
 */
export async function sdkOverhead(
  baseUrl: string,
  iterations: number,
): Promise<{ rawMs: number; clientMs: number; overhead: number; iterations: number }> {
  const client = createClient({ baseUrl })
  const url = `${baseUrl}/tasks?limit=20`
  const raw = async () => {
    const response = await fetch(url, { headers: { accept: 'application/json' } })
    if (!response.ok) throw new Error(`GET ${url} answered ${response.status}`)
    return (await response.json()) as unknown[]
  }
  const sdk = () => client.listTasks(20)
  const samples: [number[], number[]] = [[], []]
  const runs = [raw, sdk] as const
  for (let i = 0; i < 200; i++) {
    await raw()
    await sdk()
  }
  const block = 100
  for (let done = 0; done < iterations; done += block) {
    const order = (done / block) % 2 === 0 ? [0, 1] : [1, 0]
    for (const which of order) {
      const run = runs[which as 0 | 1]
      for (let i = 0; i < block; i++) {
        const start = performance.now()
        const tasks = await run()
        samples[which as 0 | 1].push(performance.now() - start)
        if (tasks.length !== 20) throw new Error(`expected 20 tasks, got ${tasks.length}`)
      }
    }
  }
  const rawMs = median(samples[0])
  const clientMs = median(samples[1])
  return { rawMs, clientMs, overhead: clientMs / rawMs - 1, iterations: samples[0].length }
}
