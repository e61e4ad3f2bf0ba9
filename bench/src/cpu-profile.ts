import { readFileSync } from 'node:fs'

/** The parts of a V8 .cpuprofile (what `node --cpu-prof` writes) that self time needs. */
interface CpuProfile {
  nodes: {
    id: number
    callFrame: { functionName: string; url: string; lineNumber: number }
  }[]
  /** Microseconds on the monotonic clock that process.hrtime reads too. */
  startTime: number
  samples: number[]
  timeDeltas: number[]
}

/** A span of the monotonic clock in microseconds (`process.hrtime.bigint() / 1000n`). */
export interface Window {
  readonly from: number
  readonly to: number
}

/** One function's share of the samples in which it was on top of the stack. */
export interface SelfTime {
  /** `name (file:line)`, the file shortened to its package or source path. */
  readonly frame: string
  /** Fraction of all samples, 0–1. */
  readonly share: number
}

/** `…/node_modules/.pnpm/fastify@5.6.0/node_modules/fastify/lib/reply.js` → `fastify/lib/reply.js`. */
export function shortUrl(url: string): string {
  const modules = url.lastIndexOf('/node_modules/')
  if (modules >= 0) return url.slice(modules + '/node_modules/'.length)
  const dist = url.indexOf('/apps/server/')
  if (dist >= 0) return url.slice(dist + '/apps/server/'.length)
  return url.replace(/^file:\/\//, '')
}

/**
 * Self time by function, largest first: every sample is counted for the function on top of
 * the stack, weighted by its time delta; frames of the same function (name, file, line)
 * are summed. `(idle)` is left out, so shares are of the time the process was busy; with
 * `window`, only samples taken within it count (the load, not the start-up).
 */
export function selfTimes(profile: CpuProfile, window?: Window): SelfTime[] {
  const frameOf = new Map<number, string>()
  for (const { id, callFrame } of profile.nodes) {
    const name = callFrame.functionName || '(anonymous)'
    frameOf.set(
      id,
      callFrame.url ? `${name} (${shortUrl(callFrame.url)}:${callFrame.lineNumber + 1})` : name,
    )
  }
  const totals = new Map<string, number>()
  let busy = 0
  let time = profile.startTime
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0
    time += delta
    if (window && (time < window.from || time > window.to)) return
    const frame = frameOf.get(id) ?? '(unknown)'
    if (frame === '(idle)') return
    totals.set(frame, (totals.get(frame) ?? 0) + delta)
    busy += delta
  })
  return [...totals.entries()]
    .map(([frame, time]) => ({ frame, share: busy > 0 ? time / busy : 0 }))
    .sort((a, b) => b.share - a.share)
}

/** Self times of a .cpuprofile file. */
export function readSelfTimes(file: string, window?: Window): SelfTime[] {
  return selfTimes(JSON.parse(readFileSync(file, 'utf8')) as CpuProfile, window)
}
