/**
 * The ablation (`pnpm bench -- --ablation`): tasklane whole, tasklane with each
 * per-request feature left out in turn (bench/src/ablation-server.ts, `buildApp`'s
 * `without`), and the built server with tracing on against the same without, all beside
 * the ceiling, in interleaved rounds at one concurrency: every feature's price as a number.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { type LoadResult, load } from './load.js'
import { cpuMicrosOf, type ServerProcess } from './processes.js'
import type { AblationResult, AblationRow } from './results.js'
import { median, ratio, spread, tooNoisy } from './stats.js'
import type { Scenario } from './sweep.js'

/** One server of the ablation, and the one its figure is compared with. */
export interface AblationVariant {
  readonly id: string
  readonly label: string
  readonly server: ServerProcess
  /** The variant this one differs from by one feature (absent: the ceiling and the references). */
  readonly baseline?: string
}

export interface AblationOptions {
  readonly connections: number
  readonly rounds: number
  readonly seconds: number
  readonly warmupSeconds: number
  readonly log: (message: string) => void
}

/**
 * A collector that takes anything: 200 to every request, its body read and dropped, so
 * that the OTLP exporter's cost is the server's and not a missing collector's retries.
 */
export async function otlpSink(): Promise<{
  url: string
  received: () => number
  close(): Promise<void>
}> {
  let received = 0
  const server: Server = createServer((request, response) => {
    request.resume()
    request.on('end', () => {
      received++
      response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    received: () => received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/**
 * Every scenario on every variant at `connections`, `rounds` times, the order of the
 * variants flipped every round; each row its median req/s, the rounds' spread, its ratio
 * to the ceiling's, and its difference from its baseline: in req/s, in time a request
 * (1/req/s of one minus the other's, when the server is the bottleneck), and in the
 * server's own CPU time a request, measured (/proc), which other load on the machine
 * hardly moves.
 */
export async function runAblation(
  variants: readonly AblationVariant[],
  scenarios: readonly Scenario[],
  options: AblationOptions,
): Promise<AblationResult> {
  const runs = new Map<string, (LoadResult & { cpuMicros: number })[]>()
  for (let round = 0; round < options.rounds; round++) {
    const order = round % 2 === 0 ? variants : [...variants].reverse()
    for (const scenario of scenarios) {
      for (const variant of order) {
        const requests = await scenario.requests(
          variant.id === 'ceiling' ? 'ceiling' : 'sqlite',
          variant.server,
          options.seconds + (round === 0 ? options.warmupSeconds : 0),
        )
        if (requests.length === 0) continue
        const { connections } = options
        if (round === 0) {
          await load(variant.server.url, requests, {
            connections,
            seconds: options.warmupSeconds,
            headers: variant.server.headers,
          })
        }
        const cpuBefore = cpuMicrosOf(variant.server.pid)
        const loaded = await load(variant.server.url, requests, {
          connections,
          seconds: options.seconds,
          headers: variant.server.headers,
        })
        const result = {
          ...loaded,
          cpuMicros: (cpuMicrosOf(variant.server.pid) - cpuBefore) / (loaded.ok + loaded.failed),
        }
        const key = `${scenario.id}/${variant.id}`
        runs.set(key, [...(runs.get(key) ?? []), result])
        options.log(
          `ablation ${round + 1}/${options.rounds} ${scenario.id.padEnd(6)} ${variant.id.padEnd(24)} ${Math.round(result.rps).toString().padStart(6)} req/s ${result.cpuMicros.toFixed(1).padStart(6)} µs CPU/request${result.failed ? `  failed ${result.failed}` : ''}`,
        )
      }
    }
  }
  const rows: AblationRow[] = []
  for (const scenario of scenarios) {
    const figure = (id: string) => {
      const rounds = runs.get(`${scenario.id}/${id}`)
      if (!rounds) return undefined
      const rps = rounds.map((r) => r.rps)
      return {
        rps: median(rps),
        cpuMicros: median(rounds.map((r) => r.cpuMicros)),
        spread: spread(rps),
        failed: rounds.reduce((sum, r) => sum + r.failed, 0),
        rounds: rps,
      }
    }
    const ceiling = figure('ceiling')
    for (const variant of variants) {
      const own = figure(variant.id)
      if (!own) continue
      const base = variant.baseline === undefined ? undefined : figure(variant.baseline)
      rows.push({
        scenario: scenario.id,
        variant: variant.id,
        label: variant.label,
        ...own,
        ratio: ceiling ? ratio(own.rps, ceiling.rps) : Number.NaN,
        ...(base && variant.baseline
          ? {
              baseline: variant.baseline,
              delta: ratio(own.rps, base.rps) - 1,
              microsPerRequest: 1e6 / base.rps - 1e6 / own.rps,
              tooNoisy: tooNoisy(own, base),
              cpuMicrosSaved: base.cpuMicros - own.cpuMicros,
            }
          : {}),
      })
    }
  }
  return {
    connections: options.connections,
    rounds: options.rounds,
    seconds: options.seconds,
    rows,
  }
}
