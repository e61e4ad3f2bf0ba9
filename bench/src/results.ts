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
  /** The rounds' req/s, max ÷ min − 1: how far to trust the median (absent in older runs). */
  spread?: number
  /** Each median divided by the ceiling's from the same run (absent for the ceiling). */
  ratio?: { rps: number; p50: number; p99: number }
}

/** The servers loaded side by side. */
export type TargetId = 'ceiling' | 'sqlite' | 'postgres' | 'pgbouncer' | 'baseline'

/** The scenarios of the sweep. */
export type ScenarioId =
  | 'full'
  | 'tail'
  | 'create'
  | 'patch'
  | 'delete'
  | 'mixed-full'
  | 'mixed-tail'

/** One scenario at one concurrency: every server's figures. */
export interface SweepPoint {
  connections: number
  targets: Partial<Record<TargetId, TargetFigures>>
}

export interface ScenarioResult {
  id: ScenarioId
  label: string
  points: SweepPoint[]
}

/**
 * What one durable commit costs on this machine, measured in the same run: an fsync of a
 * file in the data directory (SQLite), a single-row committed insert (PostgreSQL).
 */
export interface CommitCost {
  sqliteFsyncMs: number
  postgresCommitMs?: number
}

/**
 * The most a perfectly batched durable writer could answer at a concurrency: every
 * commit carries all `connections` creates, so connections ÷ commit latency, capped by
 * the ceiling's POST at that concurrency; and tasklane's durable POST as a share of it.
 */
export interface BatchedLimit {
  /** The durable write measured (absent in runs before PATCH was: the create). */
  scenario?: ScenarioId
  target: TargetId
  connections: number
  limit: number
  measured: number
  ratio: number
}

export interface LatencyPair {
  /** Median milliseconds of sequential requests at the small and the large table. */
  smallMs: number
  largeMs: number
  /** largeMs / smallMs */
  ratio: number
}

/** One server of the ablation under one scenario. */
export interface AblationRow {
  scenario: ScenarioId
  /** `ceiling`, `whole`, `without-<feature>`, `everything-off`, `built`, `tracing`. */
  variant: string
  label: string
  /** Median req/s over the rounds, and each round's. */
  rps: number
  rounds: number[]
  /** max ÷ min − 1 of the rounds. */
  spread: number
  failed: number
  /** rps ÷ the ceiling's. */
  ratio: number
  /** Median over the rounds of the server's CPU time (user + system) per answered request, µs. */
  cpuMicros: number
  /** The variant compared with: tasklane whole, or for tracing the built server without it. */
  baseline?: string
  /** rps ÷ the baseline's − 1: +0.05, 5 % more requests a second without the feature. */
  delta?: number
  /** 1/baseline − 1/rps in µs: what the feature costs a request (the server being the bottleneck). */
  microsPerRequest?: number
  /** Either figure's rounds spread further apart than the two medians are. */
  tooNoisy?: boolean
  /** The baseline's CPU µs a request − this one's: what the feature costs a request in CPU. */
  cpuMicrosSaved?: number
}

export interface AblationResult {
  connections: number
  rounds: number
  seconds: number
  rows: AblationRow[]
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
  settings: {
    quick: boolean
    rounds: number
    seconds: number
    connections: number[]
    tasks: number
  }
  notes: string[]
  load: ScenarioResult[]
  commitCost?: CommitCost
  batchedLimits?: BatchedLimit[]
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
  /** Each per-request feature's price (--ablation). */
  ablation?: AblationResult
  /** How the processes were placed on cores (taskset), or why not. */
  pinning?: string
  /** The change feed: 1,000 subscribers on one SQLite server. */
  fanOut?: FanOutResult
  goals: Goal[]
}
