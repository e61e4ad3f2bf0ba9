/**
 * `--write-cost`: the CPU a durable write costs the storage alone, without HTTP: batches of
 * creates, renames and deletes committed through the server's own storage (openStorage,
 * its writer thread and the one write algorithm) on a seeded SQLite file, whole and
 * without each of the storage's parts (storage-ablation.ts). This process's CPU time (its
 * threads: the caller's and the writer's) over the writes committed: fsync waits are not
 * CPU, so the figures hold on a busy disk. The ablation's server figures add HTTP to these.
 */
import { copyFileSync, rmSync } from 'node:fs'
import { openStorage, type Storage } from '@tasklane/server'
import { formatTable } from './report.js'
import { seedSqlite } from './seed.js'
import { median } from './stats.js'
import { ablateSchema, STORAGE_ABLATIONS, type StorageAblation } from './storage-ablation.js'

type TaskWrite = Parameters<Storage['write']>[0][number]

/** Writes a batch carries: about what a commit takes at 50 connections. */
const BATCH = 25
const WARMUP_BATCHES = 40

export const WRITE_KINDS = ['create', 'rename', 'delete'] as const
export type WriteKind = (typeof WRITE_KINDS)[number]

export interface WriteCostRow {
  readonly id: string
  readonly label: string
  /** µs of CPU a write, by kind. */
  readonly cpuMicros: Record<WriteKind, number>
}

const CALLER = { principal: 'local', access: 'admin' as const }

/** `BATCH` writes of `kind` on a file of `tasks` seeded tasks; deletes take the newest first. */
function writes(kind: WriteKind, tasks: number, state: { n: number; newest: number }): TaskWrite[] {
  return Array.from({ length: BATCH }, (): TaskWrite => {
    state.n++
    const keyed = { caller: CALLER, fingerprint: `write-cost-${state.n}` }
    if (kind === 'create') return { ...keyed, kind, name: 'Benchmark task', tag: 'bench' }
    if (kind === 'delete') return { ...keyed, kind, id: state.newest-- }
    const id = 1 + Math.floor(Math.random() * Math.floor(tasks / 2))
    return { ...keyed, kind: 'update', id, patch: { name: `Renamed ${state.n}` } }
  })
}

/** µs of this process's CPU a write of each kind, `batches` batches each, on `file`. */
async function measure(file: string, tasks: number, batches: number) {
  const storage = await openStorage({ kind: 'sqlite', filename: file })
  const state = { n: 0, newest: tasks }
  const cpuMicros = {} as Record<WriteKind, number>
  try {
    for (const kind of WRITE_KINDS) {
      const commit = async () => {
        const outcomes = await storage.write(writes(kind, tasks, state), Date.now(), 0)
        const failed = outcomes.find((outcome) => outcome.result !== 'written')
        if (failed) throw new Error(`write-cost: a ${kind} came to ${failed.result}`)
      }
      for (let i = 0; i < WARMUP_BATCHES; i++) await commit()
      const before = process.cpuUsage()
      for (let i = 0; i < batches; i++) await commit()
      const { user, system } = process.cpuUsage(before)
      cpuMicros[kind] = (user + system) / (batches * BATCH)
    }
  } finally {
    await storage.close()
  }
  return cpuMicros
}

/**
 * The storage whole, without each of its parts, and without all of them, each on its own
 * copy of one seeded file (`work`/write-cost.db), in `rounds` interleaved rounds (medians).
 */
export async function measureWriteCost(
  work: string,
  tasks: number,
  { rounds, batches, log }: { rounds: number; batches: number; log: (message: string) => void },
): Promise<WriteCostRow[]> {
  const seeded = `${work}/write-cost.db`
  // The server's storage makes and migrates the file; the seed fills it.
  await (await openStorage({ kind: 'sqlite', filename: seeded })).close()
  seedSqlite(seeded, tasks)
  const parts = Object.keys(STORAGE_ABLATIONS) as StorageAblation[]
  const variants: { id: string; label: string; without: StorageAblation[] }[] = [
    { id: 'whole', label: 'the storage whole', without: [] },
    ...parts.map((part) => ({
      id: `without-${part}`,
      label: `  without ${STORAGE_ABLATIONS[part].label}`,
      without: [part],
    })),
    { id: 'without-all', label: `  without all ${parts.length}`, without: parts },
  ]
  const figures = new Map<string, Record<WriteKind, number>[]>()
  for (let round = 0; round < rounds; round++) {
    for (const variant of round % 2 === 0 ? variants : [...variants].reverse()) {
      const file = `${work}/write-cost-${variant.id}.db`
      for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true })
      copyFileSync(seeded, file)
      if (variant.without.length > 0) ablateSchema(file, variant.without)
      const cpu = await measure(file, tasks, batches)
      figures.set(variant.id, [...(figures.get(variant.id) ?? []), cpu])
      log(
        `write cost ${round + 1}/${rounds} ${variant.id.padEnd(28)} ${WRITE_KINDS.map((kind) => `${kind} ${cpu[kind].toFixed(1)} µs`).join('  ')}`,
      )
    }
  }
  return variants.map(({ id, label }) => {
    const runs = figures.get(id) ?? []
    const cpuMicros = Object.fromEntries(
      WRITE_KINDS.map((kind) => [kind, median(runs.map((run) => run[kind]))]),
    ) as Record<WriteKind, number>
    return { id, label, cpuMicros }
  })
}

/** The write-cost table: µs of CPU a write of each kind, and each part's price (whole − without). */
export function writeCostTable(rows: readonly WriteCostRow[]): string {
  const whole = rows.find((row) => row.id === 'whole')
  const cell = (row: WriteCostRow, kind: WriteKind) => {
    const value = row.cpuMicros[kind]
    const price = whole && row !== whole ? ` (${(whole.cpuMicros[kind] - value).toFixed(1)})` : ''
    return `${value.toFixed(1)}${price}`
  }
  return `CPU µs a durable write, storage alone (in brackets: what the part costs, whole − without)\n${formatTable(
    [
      ['storage', ...WRITE_KINDS],
      ...rows.map((row) => [row.label, ...WRITE_KINDS.map((kind) => cell(row, kind))]),
    ],
  )}`
}
