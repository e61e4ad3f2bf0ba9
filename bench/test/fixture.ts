import type { BenchResults } from '../src/results.js'

/** A complete result as a run writes it, with round numbers. */
export function fixture(): Omit<BenchResults, 'goals'> {
  /** `ceiling`: the ceiling's req/s and p99 at the same concurrency. */
  const figures = (rps: number, p50: number, p99: number, ceiling?: [number, number]) => ({
    rps,
    p50,
    p99,
    failed: 0,
    rounds: [{ rps, p50, p99 }],
    ...(ceiling === undefined
      ? {}
      : { ratio: { rps: rps / ceiling[0], p50: 1, p99: p99 / ceiling[1] } }),
  })
  return {
    command: 'pnpm bench -- --quick',
    date: '2026-01-01T00:00:00.000Z',
    machine: { nproc: 2, cpu: 'Test CPU <x86>', node: 'v20.0.0', os: 'Linux 6', memoryGiB: 24 },
    settings: { quick: true, rounds: 2, seconds: 2, connections: [10, 50], tasks: 100_000 },
    notes: [],
    load: [
      {
        id: 'full',
        label: 'GET /tasks?limit=20 (full page)',
        points: [
          {
            connections: 10,
            targets: {
              ceiling: figures(10_000, 0.5, 2),
              sqlite: figures(8_500, 0.6, 2.5, [10_000, 2]),
            },
          },
          {
            connections: 50,
            targets: {
              ceiling: figures(12_000, 2, 8),
              sqlite: figures(11_000, 2.2, 9, [12_000, 8]),
            },
          },
        ],
      },
      {
        id: 'tail',
        label: 'GET /tasks?limit=20&after=<newest − 20> (tail page)',
        points: [
          {
            connections: 50,
            targets: { ceiling: figures(12_000, 2, 8), sqlite: figures(6_000, 4, 20, [12_000, 8]) },
          },
        ],
      },
      {
        id: 'create',
        label: 'POST /task (durable)',
        points: [
          {
            connections: 10,
            targets: {
              ceiling: figures(10_000, 0.5, 2),
              sqlite: figures(2_000, 3, 10, [10_000, 2]),
            },
          },
          {
            connections: 50,
            targets: { ceiling: figures(12_000, 2, 8), sqlite: figures(8_000, 5, 12, [12_000, 8]) },
          },
        ],
      },
      {
        id: 'patch',
        label: 'PATCH /tasks/<random seeded id> (durable rename)',
        points: [
          {
            connections: 50,
            targets: { ceiling: figures(12_000, 2, 8), sqlite: figures(6_000, 6, 10, [12_000, 8]) },
          },
        ],
      },
    ],
    commitCost: { sqliteFsyncMs: 2 },
    batchedLimits: [
      {
        scenario: 'create',
        target: 'sqlite',
        connections: 10,
        limit: 5_000,
        measured: 2_000,
        ratio: 0.4,
      },
      {
        scenario: 'create',
        target: 'sqlite',
        connections: 50,
        limit: 10_000,
        measured: 8_000,
        ratio: 0.8,
      },
      // A PATCH's share is not a POST goal.
      {
        scenario: 'patch',
        target: 'sqlite',
        connections: 10,
        limit: 5_000,
        measured: 4_500,
        ratio: 0.9,
      },
    ],
    latency: {
      smallTasks: 1_000,
      largeTasks: 1_000_000,
      firstPage: { smallMs: 0.3, largeMs: 0.33, ratio: 1.1 },
      deepCursor: { smallMs: 0.3, largeMs: 0.45, ratio: 1.5, smallAfter: 900, largeAfter: 900_000 },
    },
    streaming: {
      tasks: 1_000_000,
      seconds: 2,
      megabytes: 43,
      rssBeforeMB: 90,
      rssPeakMB: 130,
      rssGrowthMB: 40,
    },
    inserts: {
      oneConnection: 200,
      concurrent: 1_500,
      connections: 10,
      withoutGroupCommit: 700,
      sqliteOnePerCommit: 250,
      sqliteHundredPerCommit: 25_000,
    },
    sdk: { rawMs: 0.4, clientMs: 0.41, overhead: 0.025, iterations: 1_000 },
    fanOut: {
      subscribers: 1_000,
      tasks: 20,
      p50Ms: 12,
      p99Ms: 140,
      maxMs: 180,
      kbPerSubscriber: 30,
      rssBeforeMB: 80,
      rssSubscribedMB: 110,
    },
  }
}
