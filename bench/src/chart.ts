import type { BenchResults, GoalStatus, ScenarioId, TargetId } from './results.js'

const WIDTH = 960
const COLORS: Record<TargetId, string> = {
  ceiling: '#9aa0a6',
  sqlite: '#1a73e8',
  postgres: '#188038',
  pgbouncer: '#e37400',
  baseline: '#a142f4',
}
const NAMES: Record<TargetId, string> = {
  ceiling: 'ceiling: bare Fastify, no storage',
  sqlite: 'tasklane, SQLite (durable)',
  postgres: 'tasklane, PostgreSQL',
  pgbouncer: 'tasklane, PostgreSQL through PgBouncer',
  baseline: 'another build (--baseline), SQLite',
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

/** Each panel's title and subtitle: the scenario's labels are too long for a panel. */
const TITLES: Record<ScenarioId, [string, string]> = {
  full: ['full page', 'GET /tasks?limit=20, cached'],
  tail: ['tail page', 'GET /tasks?limit=20&after=<newest − 20>'],
  create: ['durable POST /task', '201 once committed to disk'],
  patch: ['durable PATCH /tasks/{id}', 'a random seeded task renamed'],
  delete: ['durable DELETE /tasks/{id}', 'a task made for it, in turn'],
  'mixed-full': ['full page, 1 % PATCH', 'GET /tasks?limit=20, 1 in 100 a PATCH'],
  'mixed-tail': ['tail page, 1 % PATCH', 'the newest 20, 1 in 100 a PATCH'],
}

const PANEL = { width: 290, height: 230, gap: 21, left: 52, bottom: 34, top: 28 }

/** Round tick values for an axis from 0 to at least `max`. */
function ticks(max: number): number[] {
  const rough = max / 4
  const magnitude = 10 ** Math.floor(Math.log10(Math.max(rough, 1)))
  const step = ([1, 2, 2.5, 5, 10].find((m) => m * magnitude >= rough) ?? 10) * magnitude
  return Array.from({ length: Math.ceil(max / step) + 1 }, (_, i) => i * step)
}

const short = (value: number) =>
  value >= 1000 ? `${(value / 1000).toFixed(value >= 10_000 ? 0 : 1)}k` : String(Math.round(value))

/** One scenario's panel: req/s against connections, a line per server (and the batched limits). */
function panel(
  results: BenchResults,
  scenario: BenchResults['load'][number],
  x0: number,
  y0: number,
): string[] {
  const parts: string[] = []
  const { width, height, left, bottom, top } = PANEL
  const plotW = width - left - 10
  const plotH = height - top - bottom
  const points = scenario.points
  const limits = (results.batchedLimits ?? []).filter(
    (limit) => (limit.scenario ?? 'create') === scenario.id,
  )
  const max = Math.max(
    1,
    ...points.flatMap((p) =>
      Object.values(p.targets).map((t) => (Number.isFinite(t?.rps) ? (t?.rps as number) : 0)),
    ),
    ...limits.map((l) => l.limit),
  )
  const axis = ticks(max)
  const top0 = axis.at(-1) as number
  const px = (i: number) =>
    x0 + left + (points.length === 1 ? plotW / 2 : (i * plotW) / (points.length - 1))
  const py = (value: number) => y0 + top + plotH - (value / top0) * plotH
  const [title, subtitle] = TITLES[scenario.id]
  parts.push(text(x0 + left, y0 + 14, title, { 'font-weight': 600 }))
  parts.push(text(x0 + left, y0 + 26, subtitle, { fill: '#5f6368', 'font-size': 11 }))
  for (const tick of axis) {
    const y = py(tick)
    parts.push(
      `<line x1="${x0 + left}" x2="${x0 + left + plotW}" y1="${y.toFixed(1)}" y2="${y.toFixed(1)}" stroke="#e8eaed"/>`,
      text(x0 + left - 6, y + 4, short(tick), {
        'text-anchor': 'end',
        fill: '#5f6368',
        'font-size': 11,
      }),
    )
  }
  points.forEach((p, i) => {
    parts.push(
      text(px(i), y0 + top + plotH + 16, String(p.connections), {
        'text-anchor': 'middle',
        fill: '#5f6368',
        'font-size': 11,
      }),
    )
  })
  parts.push(
    text(x0 + left + plotW / 2, y0 + height - 4, 'connections', {
      'text-anchor': 'middle',
      fill: '#5f6368',
      'font-size': 11,
    }),
  )
  const line = (values: number[], color: string, dashed = false) => {
    const coords = values
      .map((v, i) => (Number.isFinite(v) ? `${px(i).toFixed(1)},${py(v).toFixed(1)}` : ''))
      .filter(Boolean)
    if (coords.length === 0) return
    parts.push(
      `<polyline points="${coords.join(' ')}" fill="none" stroke="${color}" stroke-width="2"${dashed ? ' stroke-dasharray="5 4"' : ''}/>`,
    )
    if (!dashed)
      for (const c of coords) {
        const [cx, cy] = c.split(',')
        parts.push(`<circle cx="${cx}" cy="${cy}" r="3" fill="${color}"/>`)
      }
  }
  for (const target of ['sqlite', 'postgres', 'pgbouncer', 'baseline'] as const) {
    const mine = limits.filter((l) => l.target === target)
    if (mine.length > 0)
      line(
        points.map((p) => mine.find((l) => l.connections === p.connections)?.limit ?? Number.NaN),
        COLORS[target],
        true,
      )
  }
  for (const target of ['ceiling', 'sqlite', 'postgres', 'pgbouncer', 'baseline'] as const) {
    if (!points.some((p) => p.targets[target])) continue
    line(
      points.map((p) => p.targets[target]?.rps ?? Number.NaN),
      COLORS[target],
    )
  }
  return parts
}

/**
 * Renders a run as a self-contained SVG: for each scenario, req/s against connections of
 * every server (and, for the durable POST, the perfectly batched limit, dashed); the goals,
 * the other figures, and the command and machine that made it.
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
      `req/s by connections, median of ${results.settings.rounds} interleaved rounds of ${results.settings.seconds} s, ${results.settings.tasks.toLocaleString('en')} tasks`,
      { fill: '#5f6368' },
    ),
  )
  y += 18
  const targets = (['ceiling', 'sqlite', 'postgres', 'pgbouncer', 'baseline'] as const).filter(
    (target) => results.load.some((scenario) => scenario.points.some((p) => p.targets[target])),
  )
  let legendX = 24
  for (const target of targets) {
    parts.push(
      `<rect x="${legendX}" y="${y}" width="12" height="12" fill="${COLORS[target]}"/>`,
      text(legendX + 18, y + 11, NAMES[target]),
    )
    legendX += 28 + NAMES[target].length * 7
  }
  if (results.batchedLimits?.length) {
    parts.push(
      `<line x1="${legendX}" x2="${legendX + 22}" y1="${y + 6}" y2="${y + 6}" stroke="#5f6368" stroke-width="2" stroke-dasharray="5 4"/>`,
      text(legendX + 28, y + 11, 'perfectly batched durable limit'),
    )
  }
  y += 24
  // Three panels a row: more scenarios wrap onto further rows.
  results.load.forEach((scenario, i) => {
    const x = 24 + (i % 3) * (PANEL.width + PANEL.gap)
    parts.push(...panel(results, scenario, x, y + Math.floor(i / 3) * (PANEL.height + 10)))
  })
  y += Math.ceil(results.load.length / 3) * (PANEL.height + 10)

  y += 20
  parts.push(text(24, y, 'Goals', { 'font-size': 16, 'font-weight': 600 }))
  y += 8
  for (const goal of results.goals) {
    y += 20
    const { mark, color } = STATUS[goal.status]
    parts.push(
      text(24, y, mark, { fill: color, 'font-weight': 700 }),
      text(44, y, goal.figure),
      text(600, y, goal.goal, { fill: '#5f6368' }),
      text(680, y, goal.value, { 'font-weight': 600 }),
      text(800, y, goal.status, { fill: color }),
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
        `last, partial page (never in the page cache): ${ms(latency.tailPage.smallMs)} at ${latency.smallTasks.toLocaleString('en')} tasks, ${ms(latency.tailPage.largeMs)} at ${latency.largeTasks.toLocaleString('en')}`,
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
