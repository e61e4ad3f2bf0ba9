import { get } from 'node:http'
import { memoryOf, resetPeakMemory } from './processes.js'

const MB = 1024 * 1024

/**
 * GETs the full list (no limit) from a server process and measures the time to the last
 * byte and the process's RSS growth: VmHWM reset just before (sampled VmRSS every 5 ms as
 * well, for kernels that refuse the reset). Checks that the body is a JSON array of
 * `expected` tasks.
 */
export async function streamAll(
  url: string,
  pid: number,
  expected: number,
): Promise<{ seconds: number; megabytes: number; rssBeforeMB: number; rssPeakMB: number }> {
  const before = memoryOf(pid).rss
  const reset = resetPeakMemory(pid)
  let sampledPeak = before
  const sampler = setInterval(() => {
    sampledPeak = Math.max(sampledPeak, memoryOf(pid).rss)
  }, 5)
  const chunks: Buffer[] = []
  const start = performance.now()
  try {
    await new Promise<void>((resolve, reject) => {
      const request = get(`${url}/tasks`, { timeout: 120_000 }, (response) => {
        if (response.statusCode !== 200)
          reject(new Error(`GET /tasks answered ${response.statusCode}`))
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('end', resolve)
        response.on('error', reject)
      })
      request.on('timeout', () => request.destroy(new Error('GET /tasks timed out')))
      request.on('error', reject)
    })
  } finally {
    clearInterval(sampler)
  }
  const seconds = (performance.now() - start) / 1000
  const after = memoryOf(pid)
  const peak = Math.max(sampledPeak, after.rss, reset ? after.hwm : 0)
  const body = Buffer.concat(chunks)
  const tasks = JSON.parse(body.toString('utf8')) as unknown[]
  if (tasks.length !== expected) {
    throw new Error(`streamed ${tasks.length} tasks, expected ${expected}`)
  }
  return { seconds, megabytes: body.length / MB, rssBeforeMB: before / MB, rssPeakMB: peak / MB }
}
