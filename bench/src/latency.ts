import { Agent, request } from 'node:http'

const agent = new Agent({ keepAlive: true, maxSockets: 1 })

/** One GET over a kept-alive connection; resolves with the body and the milliseconds it took. */
export function timedGet(url: string): Promise<{ ms: number; status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint()
    const req = request(url, { agent, timeout: 10_000 }, (response) => {
      let bytes = 0
      response.on('data', (chunk: Buffer) => {
        bytes += chunk.length
      })
      response.on('end', () => {
        const ms = Number(process.hrtime.bigint() - start) / 1e6
        resolve({ ms, status: response.statusCode ?? 0, bytes })
      })
      response.on('error', reject)
    })
    req.on('timeout', () => req.destroy(new Error(`GET ${url} timed out`)))
    req.on('error', reject)
    req.end()
  })
}

/**
 * Latency of sequential GETs (one at a time, so nothing queues) to several URLs,
 * interleaved in blocks so that drift on a noisy machine hits every URL alike.
 * Returns each URL's samples in milliseconds; throws on a non-200 answer.
 */
export async function interleavedLatency(
  urls: readonly string[],
  {
    iterations,
    block = 100,
    warmup = 100,
  }: { iterations: number; block?: number; warmup?: number },
): Promise<number[][]> {
  const samples = urls.map(() => [] as number[])
  for (const url of urls) for (let i = 0; i < warmup; i++) await timedGet(url)
  for (let done = 0; done < iterations; done += block) {
    const order =
      (done / block) % 2 === 0 ? urls.map((_, i) => i) : urls.map((_, i) => urls.length - 1 - i)
    for (const index of order) {
      const url = urls[index] as string
      for (let i = 0; i < Math.min(block, iterations - done); i++) {
        const { ms, status } = await timedGet(url)
        if (status !== 200) throw new Error(`GET ${url} answered ${status}`)
        ;(samples[index] as number[]).push(ms)
      }
    }
  }
  return samples
}
