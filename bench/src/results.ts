import type { FanOutResult } from './fanout.js'

/** The machine a run was made on. */
export interface Machine {
  nproc: number
  cpu: string
  node: string
  os: string
  memoryGiB: number
}

/** Figures of one server under one scenario: medians over the rounds, and each round. */
export interface TargetFigures {
  rps: number
  p50: number
  p99: number
  failed: number
  rounds: { rps: number; p50: number; p99: number }[]
  /** Each median divided by the ceiling's from the same run (absent for the ceiling). */
  ratio?: { rps: number; p50: number; p99: number }
}

/** The servers loaded side by side. */
export type TargetId = 'ceiling' | 'sqlite' | 'postgres'

export interface ScenarioResult {
  id: string
  label: string
  targets: Partial<Record<TargetId, TargetFigures>>
}

export interface LatencyPair {
  /** Median milliseconds of sequential requests at the small and the large table. */
  smallMs: number
  largeMs: number
  /** largeMs / smallMs */
  ratio: number
}

export type GoalStatus = 'reached' | 'not reached' | 'pending'

export interface Goal {
  figure: string
  goal: string
  value: string
  status: GoalStatus
}

/** Everything a run writes to results/latest.json. */
export interface BenchResults {
  command: string
  date: string
  machine: Machine
  settings: { quick: boolean; rounds: number; seconds: number; connections: number; tasks: number }
  notes: string[]
  load: ScenarioResult[]
  latency?: {
    smallTasks: number
    largeTasks: number
    firstPage: LatencyPair
    deepCursor: LatencyPair & { smallAfter: number; largeAfter: number }
    /** The last, partial page (10 tasks after the cursor): never cached, always a query. */
    tailPage?: LatencyPair & { smallAfter: number; largeAfter: number }
  }
  streaming?: {
    tasks: number
    seconds: number
    megabytes: number
    rssBeforeMB: number
    rssPeakMB: number
    rssGrowthMB: number
  }
  inserts?: {
    /** Durable POST /task per second with one connection: one commit per request, necessarily. */
    oneConnection: number
    /** Durable POST /task per second with `connections` connections. */
    concurrent: number
    connections: number
    /** The same concurrent load with group commit switched off, when the server has a switch. */
    withoutGroupCommit: number
    /** better-sqlite3 in the benchmark process, synchronous=FULL, on the same disk. */
    sqliteOnePerCommit: number
    sqliteHundredPerCommit: number
  }
  sdk?: { rawMs: number; clientMs: number; overhead: number; iterations: number }
  /** The change feed: 1,000 subscribers on one SQLite server (issue 13). */
  fanOut?: FanOutResult
  goals: Goal[]
}
