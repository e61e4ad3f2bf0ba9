import { spawnSync } from 'node:child_process'
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort, launch } from '@tasklane/testing/launch'
import { commandExists, systemHas } from '@tasklane/testing/requirements'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTask, get } from './support/http.js'
import { parseMetrics } from './support/metrics.js'
import { killAll, REPO_ROOT, type ServerProcess, within } from './support/processes.js'
import { startServer, type TestServer } from './support/server.js'

const DEPLOY = join(REPO_ROOT, 'deploy')
const TOKEN = 'prometheus-scrape-token'

const hasPrometheus = systemHas(
  'Prometheus (prometheus and promtool)',
  commandExists('prometheus') && commandExists('promtool'),
  'apt-get install prometheus',
)

/** Runs promtool to its end. */
function promtool(args: string[], input?: string) {
  const { status, stdout, stderr } = spawnSync('promtool', args, {
    input,
    encoding: 'utf8',
    timeout: 30_000,
  })
  return { status, output: `${stdout}${stderr}` }
}

/** `text` with `from` replaced by `to`, failing if `from` is not there (the file changed). */
function replaced(text: string, from: string | RegExp, to: string): string {
  const pattern = typeof from === 'string' ? from : new RegExp(from.source, 'g')
  if (!text.match(pattern)) throw new Error(`deploy/prometheus.yml no longer contains ${from}`)
  return text.replaceAll(pattern, to)
}

describe.runIf(hasPrometheus)('Prometheus scraping a server with deploy/prometheus.yml', () => {
  let server: TestServer
  let prometheus: ServerProcess
  let dir: string

  /** An instant query on the Prometheus HTTP API. */
  async function query(expr: string) {
    const response = await fetch(`${prometheus.url}/api/v1/query?query=${encodeURIComponent(expr)}`)
    return (await response.json()) as {
      status: string
      error?: string
      data: { result: { metric: Record<string, string>; value: [number, string] }[] }
    }
  }

  /** Polls `expr` until its first value satisfies `done`; returns that value. */
  async function until(expr: string, done: (value: number) => boolean): Promise<number> {
    let last: number | undefined
    const poll = async () => {
      for (;;) {
        const value = (await query(expr)).data.result[0]?.value[1]
        last = value === undefined ? undefined : Number(value)
        if (last !== undefined && done(last)) return last
        await new Promise((resolve) => setTimeout(resolve, 250))
      }
    }
    return within(poll(), 30_000, `${expr} (last ${last})`)
  }

  beforeAll(async () => {
    server = await startServer({ settings: { apiToken: TOKEN } })
    dir = mkdtempSync(join(tmpdir(), 'tasklane-prometheus-'))
    writeFileSync(join(dir, 'token'), TOKEN)
    let config = readFileSync(join(DEPLOY, 'prometheus.yml'), 'utf8')
    config = replaced(config, '15s', '1s')
    config = replaced(config, '/etc/prometheus/tasklane-token', join(dir, 'token'))
    config = replaced(config, /targets: \[.*\]/, `targets: ["127.0.0.1:${server.port}"]`)
    writeFileSync(join(dir, 'prometheus.yml'), config)
    copyFileSync(join(DEPLOY, 'tasklane-alerts.yml'), join(dir, 'tasklane-alerts.yml'))
    const port = await freePort()
    prometheus = await launch({
      command: 'prometheus',
      args: [
        `--config.file=${join(dir, 'prometheus.yml')}`,
        `--storage.tsdb.path=${join(dir, 'data')}`,
        `--web.listen-address=127.0.0.1:${port}`,
        '--log.level=warn',
      ],
      port,
      readyPath: '/-/ready',
      timeoutMs: 30_000,
    })
  })

  afterAll(async () => {
    await killAll()
    await server?.close()
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  it('scrapes /metrics with the token and reads tasklane_tasks_created_total', async () => {
    for (const name of ['one', 'two', 'three']) {
      const response = await fetch(`${server.url}/task`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name }),
      })
      expect(response.status).toBe(201)
    }
    expect(await until('up{job="tasklane"}', (value) => value === 1)).toBe(1)
    expect(await until('tasklane_tasks_created_total{job="tasklane"}', (value) => value >= 3)).toBe(
      3,
    )
  }, 40_000)

  it('loads the alert rules of deploy/tasklane-alerts.yml and evaluates them without error', async () => {
    type Rule = { name: string; health: string; lastError?: string }
    const rules = async () => {
      const response = await fetch(`${prometheus.url}/api/v1/rules`)
      const { data } = (await response.json()) as { data: { groups: { rules: Rule[] }[] } }
      return data.groups.flatMap((group) => group.rules)
    }
    expect((await rules()).map((rule) => rule.name).sort()).toEqual([
      'TasklaneDown',
      'TasklaneFeedSubscribersNearLimit',
      'TasklaneHigh5xxRatio',
      'TasklaneHighP99Latency',
      'TasklaneSlowCommits',
      'TasklaneWebhookBehind',
      'TasklaneWebhookBehind',
      'TasklaneWriteQueueBacklog',
    ])
    // "unknown" until their first evaluation (every second here), then "ok" or "err".
    let evaluated: Rule[] = []
    const settled = async () => {
      while (!evaluated.length || evaluated.some((rule) => rule.health === 'unknown')) {
        await new Promise((resolve) => setTimeout(resolve, 250))
        evaluated = await rules()
      }
    }
    await within(settled(), 30_000, 'a first evaluation of every rule')
    expect(evaluated.map(({ name, health, lastError }) => ({ name, health, lastError }))).toEqual(
      evaluated.map(({ name }) => ({ name, health: 'ok', lastError: undefined })),
    )
  }, 40_000)

  it('runs every query of deploy/grafana-dashboard.json, on metrics the server exposes', async () => {
    const dashboard = JSON.parse(readFileSync(join(DEPLOY, 'grafana-dashboard.json'), 'utf8')) as {
      panels: { title: string; targets: { expr: string }[] }[]
    }
    const scraped = await get(server, '/metrics', { headers: { authorization: `Bearer ${TOKEN}` } })
    const exposed = new Set(parseMetrics(await scraped.text()).map((sample) => sample.name))
    const exprs = dashboard.panels.flatMap((panel) => panel.targets.map((target) => target.expr))
    expect(exprs.length).toBeGreaterThanOrEqual(10)
    for (const expr of exprs) {
      const named = expr.match(/\b(?:tasklane|process|nodejs)_\w+/g) ?? []
      expect(named.filter((name) => !exposed.has(name))).toEqual([])
      const runnable = expr.replaceAll('$__rate_interval', '1m').replaceAll('$instance', '.*')
      const result = await query(runnable)
      expect({ expr, status: result.status, error: result.error }).toEqual({
        expr,
        status: 'success',
        error: undefined,
      })
    }
  }, 40_000)
})

describe.runIf(hasPrometheus)('promtool', () => {
  let server: TestServer

  beforeAll(async () => {
    server = await startServer()
  })

  afterAll(async () => {
    await server?.close()
  })

  it('check metrics: /metrics passes, every metric with HELP, TYPE and a conventional name', async () => {
    await createTask(server, { name: 'linted' })
    const text = await (await get(server, '/metrics')).text()
    expect(promtool(['check', 'metrics'], text)).toEqual({ status: 0, output: '' })
  })

  it('check rules: deploy/tasklane-alerts.yml is valid', () => {
    const { status, output } = promtool(['check', 'rules', join(DEPLOY, 'tasklane-alerts.yml')])
    expect({ status, output }).toEqual({ status: 0, output: expect.stringContaining('SUCCESS') })
  })

  it('test rules: every alert fires when it should and not before (deploy/tasklane-alerts.test.yml)', () => {
    const { status, output } = promtool(['test', 'rules', join(DEPLOY, 'tasklane-alerts.test.yml')])
    expect({ status, output }).toEqual({ status: 0, output: expect.stringContaining('SUCCESS') })
  })
})
