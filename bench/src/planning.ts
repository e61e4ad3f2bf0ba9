import { type LoadResult, load } from './load.js'
import { median, ratio } from './stats.js'

/** A listing shape of planning, measured beside the plain first page. */
export interface PlanningShape {
  readonly id: string
  readonly path: string
}

/** The plain first page: what every shape is divided by. */
export const PLAIN_PAGE: PlanningShape = { id: 'plain', path: '/tasks?limit=20' }

/**
 * The shapes, each answered by an index on tables seeded with `seedSqlite(…, { planned:
 * true })`: the due-key, list-position and priority indexes, the search index (one word of
 * the notes, then three), and the due-key index again for overdue.
 */
export const PLANNING_SHAPES: readonly PlanningShape[] = [
  PLAIN_PAGE,
  { id: 'due', path: '/tasks?limit=20&sort=due' },
  { id: 'position', path: '/tasks?limit=20&sort=position&list=1' },
  { id: 'q one word', path: '/tasks?limit=20&q=mango' },
  { id: 'q three words', path: '/tasks?limit=20&q=mango%20nylon%20ocean' },
  { id: 'overdue', path: '/tasks?limit=20&overdue=true' },
  { id: 'priority desc', path: '/tasks?limit=20&sort=priority&order=desc' },
]

/** One shape at one table size: medians over the rounds, and against the plain page. */
export interface PlanningFigures {
  /** Where the server keeps its tasks. */
  backend: 'sqlite' | 'postgres'
  tasks: number
  shape: string
  path: string
  /** Tasks on the first page (a search may find fewer than 20). */
  rows: number
  rps: number
  p99: number
  failed: number
  /** req/s ÷ the plain page's req/s, p99 ÷ its p99, in the same run (NaN for the page itself). */
  ratio: { rps: number; p99: number }
}

/**
 * Each shape's medians over its rounds (req/s and p99), with its ratios to the plain
 * page's medians at the same size; the plain page itself has no ratio.
 */
export function summarizePlanning(
  backend: PlanningFigures['backend'],
  tasks: number,
  measured: readonly { shape: PlanningShape; rows: number; rounds: readonly LoadResult[] }[],
): PlanningFigures[] {
  const medians = measured.map(({ shape, rows, rounds }) => ({
    shape,
    rows,
    rps: median(rounds.map((r) => r.rps)),
    p99: median(rounds.map((r) => r.p99)),
    failed: rounds.reduce((sum, r) => sum + r.failed, 0),
  }))
  const plain = medians.find((m) => m.shape.id === PLAIN_PAGE.id)
  return medians.map((m) => ({
    backend,
    tasks,
    shape: m.shape.id,
    path: m.shape.path,
    rows: m.rows,
    rps: m.rps,
    p99: m.p99,
    failed: m.failed,
    ratio:
      m === plain || !plain
        ? { rps: Number.NaN, p99: Number.NaN }
        : { rps: ratio(m.rps, plain.rps), p99: ratio(m.p99, plain.p99) },
  }))
}

/**
 * Every shape against one server, interleaved round by round (one unrecorded load of each
 * before the first round), after checking that each answers 200 with a page.
 */
export async function measurePlanning(
  url: string,
  backend: PlanningFigures['backend'],
  tasks: number,
  options: { connections: number; rounds: number; seconds: number; warmupSeconds: number },
  log: (message: string) => void,
): Promise<PlanningFigures[]> {
  const measured = []
  for (const shape of PLANNING_SHAPES) {
    const response = await fetch(url + shape.path)
    const page = (await response.json()) as unknown
    if (response.status !== 200 || !Array.isArray(page)) {
      throw new Error(`planning: GET ${shape.path} answered ${response.status}`)
    }
    measured.push({ shape, rows: page.length, rounds: [] as LoadResult[] })
  }
  const run = (shape: PlanningShape, seconds: number) =>
    load(url, [{ method: 'GET', path: shape.path }], { connections: options.connections, seconds })
  for (const { shape } of measured) await run(shape, options.warmupSeconds)
  for (let round = 1; round <= options.rounds; round++) {
    for (const entry of measured) entry.rounds.push(await run(entry.shape, options.seconds))
    log(
      `planning, ${backend}, ${tasks.toLocaleString('en')} tasks: round ${round} of ${options.rounds}`,
    )
  }
  return summarizePlanning(backend, tasks, measured)
}
