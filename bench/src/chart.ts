import type { BenchResults, GoalStatus, TargetId } from './results.js'

const WIDTH = 960
const COLORS: Record<TargetId, string> = {
  ceiling: '#9aa0a6',
  sqlite: '#1a73e8',
  postgres: '#188038',
}
const NAMES: Record<TargetId, string> = {
  ceiling: 'ceiling: bare Fastify, no storage',
  sqlite: 'tasklane, SQLite (durable)',
  postgres: 'tasklane, PostgreSQL',
}
const STATUS: Record<GoalStatus, { mark: string; color: string }> = {
  reached: { mark: '✓', color: '#188038' },
  'not reached': { mark: '✗', color: '#d93025' },
  pending: { mark: '…', color: '#9aa0a6' },
}

/** Text safe inside an SVG element or attribute. */
export function escapeXml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
}

const number = (value: number) =>
  Number.isFinite(value) ? Math.round(value).toLocaleString('en') : '–'
const ms = (value: number) => (Number.isFinite(value) ? `${value.toFixed(2)} ms` : '–')

function text(
  x: number,
  y: number,
  content: string,
  attributes: Record<string, string | number> = {},
): string {
  const attrs = Object.entries(attributes)
    .map(([key, value]) => ` ${key}="${escapeXml(String(value))}"`)
    .join('')
  return `<text x="${x}" y="${y}"${attrs}>${escapeXml(content)}</text>`
}

/**
 * Renders a run as a self-contained SVG: req/s of every server under every scenario as
 * bars (with each tasklane bar's ratio to the ceiling), the goals, the other figures,
 * and the command and machine that made it.
 */
export function renderChart(results: BenchResults): string {
  const parts: string[] = []
  let y = 36
  parts.push(
    text(24, y, 'tasklane against the bare-Fastify ceiling', {
      'font-size': 20,
      'font-weight': 600,
    }),
  )
  y += 22
  parts.push(
    text(
      24,
      y,
      `req/s, median of ${results.settings.rounds} interleaved rounds of ${results.settings.seconds} s, ${results.settings.connections} connections, ${results.settings.tasks.toLocaleString('en')} tasks; p50 / p99 latency`,
      { fill: '#5f6368' },
    ),
  )
  y += 18
  const targets = (['ceiling', 'sqlite', 'postgres'] as const).filter((target) =>
    results.load.some((scenario) => scenario.targets[target]),
  )
  let legendX = 24
  for (const target of targets) {
    parts.push(
      `<rect x="${legendX}" y="${y}" width="12" height="12" fill="${COLORS[target]}"/>`,
      text(legendX + 18, y + 11, NAMES[target]),
    )
    legendX += 28 + NAMES[target].length * 7
  }
  y += 30

  const barMax = 520
  const max = Math.max(
    1,
    ...results.load.flatMap((s) => Object.values(s.targets).map((t) => t?.rps ?? 0)),
  )
  for (const scenario of results.load) {
    parts.push(text(24, y + 12, scenario.label, { 'font-weight': 600 }))
    y += 20
    for (const target of targets) {
      const figures = scenario.targets[target]
      if (!figures) continue
      const width = Math.max(1, (figures.rps / max) * barMax)
      const ratio = figures.ratio ? ` (${figures.ratio.rps.toFixed(2)}× ceiling)` : ''
      parts.push(
        `<rect x="24" y="${y}" width="${width.toFixed(1)}" height="16" fill="${COLORS[target]}" rx="2"/>`,
        text(24 + width + 6, y + 12, `${number(figures.rps)} req/s${ratio}`, {
          'font-weight': figures.ratio ? 600 : 400,
        }),
        text(WIDTH - 24, y + 12, `p50 ${ms(figures.p50)} · p99 ${ms(figures.p99)}`, {
          'text-anchor': 'end',
          fill: '#5f6368',
        }),
      )
      y += 20
    }
    y += 10
  }

  y += 20
  parts.push(text(24, y, 'Goals (issues 6 and 13)', { 'font-size': 16, 'font-weight': 600 }))
  y += 8
  for (const goal of results.goals) {
    y += 20
    const { mark, color } = STATUS[goal.status]
    parts.push(
      text(24, y, mark, { fill: color, 'font-weight': 700 }),
      text(44, y, goal.figure),
      text(520, y, goal.goal, { fill: '#5f6368' }),
      text(600, y, goal.value, { 'font-weight': 600 }),
      text(760, y, goal.status, { fill: color }),
    )
  }

  const other: string[] = []
  const { latency, streaming, inserts, sdk, fanOut } = results
  if (latency) {
    other.push(
      `list latency, limit=20: ${ms(latency.firstPage.smallMs)} at ${latency.smallTasks.toLocaleString('en')} tasks, ${ms(latency.firstPage.largeMs)} at ${latency.largeTasks.toLocaleString('en')}; deep cursor ${ms(latency.deepCursor.smallMs)} vs ${ms(latency.deepCursor.largeMs)}`,
    )
    if (latency.tailPage) {
      other.push(
        `last, partial page (never cached, always a query): ${ms(latency.tailPage.smallMs)} at ${latency.smallTasks.toLocaleString('en')} tasks, ${ms(latency.tailPage.largeMs)} at ${latency.largeTasks.toLocaleString('en')}`,
      )
    }
  }
  if (streaming) {
    other.push(
      `streaming all ${streaming.tasks.toLocaleString('en')} tasks: ${streaming.seconds.toFixed(1)} s, ${streaming.megabytes.toFixed(0)} MB of JSON, server RSS ${streaming.rssBeforeMB.toFixed(0)} → peak ${streaming.rssPeakMB.toFixed(0)} MB`,
    )
  }
  if (inserts) {
    const off = `without group commit ${number(inserts.withoutGroupCommit)}/s`
    other.push(
      `durable POST /task: ${number(inserts.concurrent)}/s at ${inserts.connections} connections, ${number(inserts.oneConnection)}/s at 1; ${off}`,
      `raw better-sqlite3 on this disk (synchronous=FULL): ${number(inserts.sqliteOnePerCommit)} inserts/s one per commit, ${number(inserts.sqliteHundredPerCommit)}/s 100 per commit`,
    )
  }
  if (sdk) {
    other.push(
      `client SDK listTasks(20) ${ms(sdk.clientMs)} vs raw fetch ${ms(sdk.rawMs)} (median of ${sdk.iterations.toLocaleString('en')} each)`,
    )
  }
  if (fanOut) {
    other.push(
      `change feed, ${fanOut.subscribers.toLocaleString('en')} subscribers: 201 → delivery p50 ${ms(fanOut.p50Ms)}, p99 ${ms(fanOut.p99Ms)}; ${fanOut.kbPerSubscriber.toFixed(0)} KB of server memory per idle subscriber`,
    )
  }
  if (other.length > 0) {
    y += 34
    parts.push(text(24, y, 'Other figures', { 'font-size': 16, 'font-weight': 600 }))
    y += 6
    for (const line of other) {
      y += 20
      parts.push(text(24, y, line))
    }
  }

  y += 34
  const { machine } = results
  parts.push(
    text(24, y, `$ ${results.command}`, {
      'font-family': 'ui-monospace, monospace',
      fill: '#3c4043',
    }),
  )
  y += 18
  parts.push(
    text(
      24,
      y,
      `${machine.nproc} × ${machine.cpu}, ${machine.memoryGiB} GiB, Node ${machine.node}, ${machine.os} · ${results.date}`,
      { fill: '#5f6368' },
    ),
  )
  y += 20

  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${y}" viewBox="0 0 ${WIDTH} ${y}" font-family="system-ui, -apple-system, 'Segoe UI', sans-serif" font-size="13" fill="#202124">`,
    `<rect width="${WIDTH}" height="${y}" fill="#ffffff"/>`,
    ...parts,
    '</svg>',
    '',
  ].join('\n')
}
