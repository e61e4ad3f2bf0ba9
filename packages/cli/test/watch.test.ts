import { createClient, type Task, type TasklaneClient } from '@tasklane/client'
import { startServer, type TasklaneServer } from '@tasklane/testing/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Running, startTasklane, tasklane, waitFor } from './support/cli.js'
import { type FlakyProxy, startFlakyProxy } from './support/flaky-proxy.js'

let server: TasklaneServer
/** Another client, changing tasks while `tasklane watch` runs. */
let client: TasklaneClient
let env: NodeJS.ProcessEnv

beforeAll(async () => {
  server = await startServer()
  client = createClient({ baseUrl: server.url })
  env = { TASKLANE_URL: server.url }
})
afterAll(() => server?.close())

/** The complete lines a watcher has printed so far. */
function lines(watcher: Running): string[] {
  return watcher.stdout().split('\n').slice(0, -1)
}

/** Waits until each watcher has printed `counts[i]` lines. */
async function printed(watchers: readonly Running[], counts: readonly number[]) {
  await waitFor(`watchers printing ${counts.join(', ')} lines`, () =>
    watchers.every((watcher, i) => lines(watcher).length >= (counts[i] ?? 0)),
  )
}

/** Ends a watcher with `signal`; it must exit 0 and have written nothing on stderr. */
async function stop(watcher: Running, signal: NodeJS.Signals = 'SIGTERM') {
  watcher.child.kill(signal)
  expect(await watcher.exited).toEqual({ status: 0, signal: null })
  expect(watcher.stderr()).toBe('')
}

describe('tasklane watch', () => {
  it('prints a line per change made by another client (created, updated, deleted), a JSON event per line with --json, an exact view with --status', async () => {
    const after = String(await server.seq())
    const text = startTasklane(['watch', '--after', after], env)
    const json = startTasklane(['watch', '--after', after, '--json'], env)
    const open = startTasklane(['watch', '--after', after, '--status', 'open'], env)
    const watchers = [text, json, open]
    // Each change waits for the lines of the one before, so that none is compacted away.
    const created = await client.createTask({ name: 'Watch me', tag: 'live' })
    await printed(watchers, [1, 1, 1])
    const done = await client.completeTask(created.id)
    await printed(watchers, [2, 2, 2])
    const renamed = await client.updateTask(created.id, { name: 'Watched', tag: null })
    await printed(watchers, [3, 3, 2])
    await client.deleteTask(created.id)
    await printed(watchers, [4, 4, 2])
    const next = await client.createTask({ name: 'Next \u001b[31m' })
    await printed(watchers, [5, 5, 3])
    for (const watcher of watchers) await stop(watcher)

    const { id } = created
    expect(lines(text)).toEqual([
      `created  ${id}  open  Watch me  [live]`,
      `updated  ${id}  done  Watch me  [live]`,
      `updated  ${id}  done  Watched`,
      `deleted  ${id}`,
      `created  ${next.id}  open  Next \\u001b[31m`,
    ])
    const events = lines(json).map((line) => JSON.parse(line))
    expect(events).toEqual([
      { type: 'created', seq: expect.any(Number), task: created },
      { type: 'updated', seq: expect.any(Number), task: done },
      { type: 'updated', seq: expect.any(Number), task: renamed },
      { type: 'deleted', seq: expect.any(Number), task: { id, version: renamed.version } },
      { type: 'created', seq: expect.any(Number), task: next },
    ])
    const seqs = events.map((event: { seq: number }) => event.seq)
    expect(seqs[0]).toBeGreaterThan(Number(after))
    expect([...seqs].sort((a, b) => a - b)).toEqual(seqs)
    expect(new Set(seqs).size).toBe(seqs.length)
    // Marked done, the task left the view of open tasks: `deleted` there, then nothing.
    expect(lines(open)).toEqual([
      `created  ${id}  open  Watch me  [live]`,
      `deleted  ${id}`,
      `created  ${next.id}  open  Next \\u001b[31m`,
    ])
  })

  it('prints a task added by tasklane add once it watches, new changes only without --after, and ends with 0 on SIGTERM', async () => {
    const watcher = startTasklane(['watch', '--tag', 'later'], env)
    // It watches once it has read the newest seq and opened the feed; a task added before
    // that is not new to it, so keep adding until one arrives.
    let added: Task | undefined
    await waitFor('the watcher printing a task', async () => {
      if (watcher.stdout() !== '') return true
      added = JSON.parse(
        (await tasklane(['add', 'watched', '--tag', 'later', '--json'], env)).stdout,
      )
      await new Promise((resolve) => setTimeout(resolve, 200))
      return watcher.stdout() !== ''
    })
    await stop(watcher)
    const [first] = lines(watcher)
    expect(first).toMatch(/^created {2}(\d+) {2}open {2}watched {2}\[later\]$/)
    expect(Number(first?.split('  ')[1])).toBeLessThanOrEqual(added?.id ?? 0)
  })

  it('prints the backlog after --after SEQ, each task once as it is now, only those of --tag, and ends with 0 on SIGINT', async () => {
    const after = await server.seq()
    const docs = await client.createTask({ name: 'Write docs', tag: 'docs' })
    const review = await client.createTask({ name: 'Review', tag: 'docs' })
    await client.completeTask(review.id)
    await client.updateTask(review.id, { name: 'Review it' })
    const other = await client.createTask({ name: 'Elsewhere', tag: 'other' })
    const watcher = startTasklane(['watch', '--after', String(after), '--tag', 'docs'], env)
    await printed([watcher], [2])
    // A task of the view made after the others: once it is printed, the backlog is all out.
    const last = await client.createTask({ name: 'Last', tag: 'docs' })
    await printed([watcher], [3])
    await stop(watcher, 'SIGINT')
    // The feed sends a changed task at its latest change, as created or updated; a task
    // outside the view and made after --after is none of the watcher's: nothing of it.
    expect(lines(watcher)).toEqual([
      `created  ${docs.id}  open  Write docs  [docs]`,
      expect.stringMatching(
        new RegExp(`^(created|updated)  ${review.id}  done  Review it  \\[docs\\]$`),
      ),
      `created  ${last.id}  open  Last  [docs]`,
    ])
    expect(watcher.stdout()).not.toContain(`  ${other.id}  `)
  })

  describe('through a connection that drops', () => {
    let proxy: FlakyProxy
    beforeAll(async () => {
      proxy = await startFlakyProxy(server.url)
    })
    afterAll(() => proxy?.close())

    it('reconnects and resumes after the last change it printed: nothing lost, nothing twice', async () => {
      const after = await server.seq()
      const watcher = startTasklane(['watch', '--after', String(after), '--json'], {
        TASKLANE_URL: proxy.url,
      })
      const before = await client.createTask({ name: 'Before the cut' })
      await printed([watcher], [1])
      const feeds = () => proxy.requests.filter(({ path }) => path.startsWith('/tasks/events'))
      const opened = feeds().length
      proxy.cutAll()
      const during = await client.createTask({ name: 'While cut' })
      await printed([watcher], [2])
      const afterCut = await client.createTask({ name: 'After the cut' })
      await printed([watcher], [3])
      await stop(watcher)

      const events = lines(watcher).map((line) => JSON.parse(line))
      expect(events.map(({ type, task }) => [type, task])).toEqual([
        ['created', before],
        ['created', during],
        ['created', afterCut],
      ])
      // It asked again, from the seq of the last change it had printed.
      const resumed = feeds().slice(opened)
      expect(resumed.length).toBeGreaterThanOrEqual(1)
      expect(resumed[0]?.headers['last-event-id']).toBe(String(events[0].seq))
    })
  })
})
