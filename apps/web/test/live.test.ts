import { createClient } from '@tasklane/client'
import { freePort } from '@tasklane/testing/launch'
import { startServer, type TasklaneServer } from '@tasklane/testing/server'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hasChromium, openPage } from './support/browser.js'
import { type BrowserSession, startBrowserSession } from './support/browser-session.js'
import { Recording } from './support/recording.js'
import {
  Api,
  filterBy,
  row,
  serverHolds,
  shownNames,
  waitForNames,
  waitForTask,
  waitForText,
} from './support/tasks.js'

let browser: Browser
/** This file's Chromium and server, in its turn (support/browser-session.ts). */
let session: BrowserSession | undefined
let server: TasklaneServer
let api: Api

/** Waits until the row of task `id` is shown done (or open), checkbox and all. */
const waitForDone = (page: Page, id: number, done: boolean) =>
  page.waitForFunction(
    ([task, wanted]) => {
      const li = document.querySelector(`#task-list li[data-id="${task}"]`)
      return (
        li?.querySelector('input')?.checked === wanted &&
        li.classList.contains('is-done') === wanted
      )
    },
    [id, done] as const,
    { timeout: 15_000 },
  )

/** What the server answers to a change sent with an outdated If-Match, asked directly. */
async function conflictMessage(id: number, version: number): Promise<string> {
  const response = await fetch(`${server.url}/tasks/${id}`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/merge-patch+json', 'if-match': `"${version}"` },
    body: JSON.stringify({ status: 'done' }),
  })
  expect(response.status).toBe(412)
  return ((await response.json()) as { message: string }).message
}

const refused = (what: string) =>
  expect.stringMatching(new RegExp(`^console: Failed to load resource: .*${what}`))

describe.runIf(hasChromium)('the page, live', { timeout: 90_000 }, () => {
  beforeAll(async () => {
    session = await startBrowserSession()
    ;({ browser, server } = session)
    api = new Api(server.url)
  }, 300_000)

  afterAll(() => session?.close())

  it('follows another tab: a tick, a rename, a delete and a new task show without reload', async () => {
    const [plants, plumber, report] = [
      await api.create({ name: 'Water the plants', tag: 'home' }),
      await api.create({ name: 'Call the plumber', tag: 'home' }),
      await api.create({ name: 'Write the report', tag: 'home' }),
    ]
    const a = await openPage(browser, server.url)
    const b = await openPage(browser, server.url)
    // `pnpm --filter @tasklane/web recording` writes docs/web-page-live.png from these frames.
    const recording = new Recording(browser, process.env.TASKLANE_RECORDING, {
      from: '#tasks-heading',
      height: 560,
    })
    for (const { page } of [a, b]) {
      await page.setViewportSize({ width: 520, height: 860 })
      await filterBy(page, 'home')
    }
    const frame = (caption: string) => recording.frame(a.page, b.page, caption)
    await frame('Two tabs on one server: what the left one does, the right one shows')

    await row(a.page, plants.id).getByRole('checkbox').check()
    await waitForDone(b.page, plants.id, true)
    await frame('Left: “Water the plants” ticked; right: done as well, without reload')

    await row(a.page, plumber.id).getByRole('button', { name: 'Edit' }).click()
    await a.page.locator(`#edit-${plumber.id}-name`).fill('Call the plumber at 9')
    await frame('Left: renaming “Call the plumber”…')
    await a.page.keyboard.press('Enter')
    await waitForTask(b.page, 'Call the plumber at 9')
    await frame('…saved with Enter; right: renamed')

    await row(a.page, report.id).getByRole('button', { name: 'Delete' }).click()
    await waitForNames(b.page, ['Call the plumber at 9', 'Water the plants'])
    await frame('Left: “Write the report” deleted; right: gone')

    await b.page.getByLabel('Name', { exact: true }).fill('Buy stamps')
    await b.page.getByLabel('Tag (optional)').fill('home')
    await b.page.getByRole('button', { name: 'Add task' }).click()
    await waitForNames(a.page, ['Buy stamps', 'Call the plumber at 9', 'Water the plants'])
    await waitForText(a.page, '#announcer', 'New task: Buy stamps')
    await row(b.page, plants.id).getByRole('checkbox').uncheck()
    await waitForDone(a.page, plants.id, false)
    await frame('Right: “Buy stamps” added and “Water the plants” open again; left: both')
    await recording.save(1600)
    expect([...a.errors, ...b.errors]).toEqual([])
  })

  it('shows what another program changes with the client library', async () => {
    const client = createClient({ baseUrl: server.url })
    const keep = await client.createTask({ name: 'Changed by a script', tag: 'script' })
    const drop = await client.createTask({ name: 'Deleted by a script', tag: 'script' })
    const { page, errors } = await openPage(browser, server.url)
    await filterBy(page, 'script')
    await client.completeTask(keep.id, { ifMatch: keep.version })
    await waitForDone(page, keep.id, true)
    await client.updateTask(keep.id, { name: 'Renamed by a script' })
    await client.deleteTask(drop.id)
    await client.createTask({ name: 'Created by a script', tag: 'script' })
    await waitForNames(page, ['Created by a script', 'Renamed by a script'])
    expect(errors).toEqual([])
  })

  it('on a conflict (412), shows the server’s message and the task as someone else left it', async () => {
    const task = await api.create({ name: 'Name it first', tag: 'conflict' })
    const { page, errors } = await openPage(browser, server.url)
    await filterBy(page, 'conflict')
    // The editor keeps the version it was opened on; someone else renames the task meanwhile.
    await row(page, task.id).getByRole('button', { name: 'Edit' }).click()
    await api.patch(task.id, { name: 'Named by someone else' })
    await waitForTask(page, 'Named by someone else')
    await page.locator(`#edit-${task.id}-name`).fill('My name for it')
    await page.keyboard.press('Enter')
    const notice = row(page, task.id).locator('.notice')
    await notice.filter({ hasText: 'Not saved' }).waitFor()
    const message = await conflictMessage(task.id, 1)
    expect(message).toBe(
      `Task ${task.id} has changed: its current ETag is "2", which If-Match does not name; nothing was changed.`,
    )
    expect(await notice.textContent()).toBe(
      `Not saved: someone else changed this task first, and it now shows their version. ${message}`,
    )
    expect(await shownNames(page)).toEqual(['Named by someone else'])
    expect(await api.get(task.id)).toMatchObject({ name: 'Named by someone else', version: 2 })
    expect(errors).toEqual([refused('412')])
  })

  it('on a conflict the feed has not told yet, reads the task and shows it as it is now', async () => {
    const task = await api.create({ name: 'Tick me, if you can', tag: 'held' })
    const { page, errors } = await openPage(browser, server.url)
    // This tab's change feed never answers: the page knows only the version it listed.
    await page.route(
      (url) => url.pathname === '/tasks/events',
      () => undefined,
    )
    await filterBy(page, 'held')
    const changed = await api.patch(task.id, { name: 'Renamed meanwhile' })
    expect(await shownNames(page)).toEqual(['Tick me, if you can'])
    await row(page, task.id).getByRole('checkbox').focus()
    await page.keyboard.press('Space')
    await waitForTask(page, 'Renamed meanwhile')
    const notice = row(page, task.id).locator('.notice')
    expect(await notice.textContent()).toContain(
      `Task ${task.id} has changed: its current ETag is "2"`,
    )
    expect(await row(page, task.id).getByRole('checkbox').isChecked()).toBe(false)
    expect(await api.get(task.id)).toEqual(changed)
    expect(errors).toEqual([refused('412')])
  })

  it('says when a change cannot reach the server, and shows the task as the server holds it', async () => {
    const task = await api.create({ name: 'Tick me offline', tag: 'offline' })
    const { page, errors } = await openPage(browser, server.url)
    await filterBy(page, 'offline')
    const unreachable = (url: URL) => url.pathname === `/tasks/${task.id}`
    await page.route(unreachable, (route) => route.abort('connectionrefused'))
    await row(page, task.id).getByRole('checkbox').focus()
    await page.keyboard.press('Space')
    const notice = row(page, task.id).locator('.notice')
    await notice.filter({ hasText: 'Not saved' }).waitFor({ timeout: 15_000 })
    expect(await notice.textContent()).toBe(
      'Not saved: The server could not be reached (ConnectionError). Try again.',
    )
    expect(await row(page, task.id).getByRole('checkbox').isChecked()).toBe(false)
    expect(await api.get(task.id)).toMatchObject({ status: 'open', version: 1 })
    // Once it is reachable again, the same Space saves it.
    await page.unroute(unreachable)
    await page.keyboard.press('Space')
    await serverHolds(api, task.id, (held) => held?.status === 'done')
    await waitForDone(page, task.id, true)
    expect(await notice.textContent()).toBe('')
    // The client tried three times (two retries) before it gave up.
    expect(errors).toEqual(Array(3).fill(refused('ERR_CONNECTION_REFUSED')))
  })

  it('pages by before cursors: a page stays put while tasks are added, and refills when one leaves', async () => {
    const made = []
    for (let i = 1; i <= 25; i += 1)
      made.push(await api.create({ name: `Paged ${i}`, tag: 'paged' }))
    const { page, errors } = await openPage(browser, server.url)
    await filterBy(page, 'paged')
    await page.getByRole('button', { name: 'Next page' }).click()
    await waitForText(page, '#page-range', 'Tasks 11–20, more follow')
    const cursor = (made[15] as { id: number }).id
    const pageTwo = () => api.names(`order=desc&tag=paged&limit=10&before=${cursor}`)
    expect(await shownNames(page)).toEqual(await pageTwo())
    // A task of page 2 deleted: the page refills from the one after it.
    await fetch(`${server.url}/tasks/${(made[11] as { id: number }).id}`, { method: 'DELETE' })
    await waitForNames(page, await pageTwo())
    expect(await shownNames(page)).toContain('Paged 6')
    // Thirty new tasks push page 2 out of the live window, which is read again deeper.
    for (let i = 26; i <= 55; i += 1) await api.create({ name: `Paged ${i}`, tag: 'paged' })
    await waitForText(page, '#list-state', '30 new tasks tagged “paged”: see Newest.')
    expect(await shownNames(page)).toEqual(await pageTwo())
    await page.getByRole('button', { name: 'Next page' }).click()
    await waitForText(page, '#page-range', 'Tasks 21–24 of 24')
    expect(await shownNames(page)).toEqual(['Paged 4', 'Paged 3', 'Paged 2', 'Paged 1'])
    expect(await page.getByRole('button', { name: 'Next page' }).isDisabled()).toBe(true)
    await page.getByRole('button', { name: 'Newest' }).click()
    await waitForText(page, '#page-range', 'Tasks 1–10, more follow')
    expect(await shownNames(page)).toEqual(await api.names('order=desc&tag=paged&limit=10'))
    expect(errors).toEqual([])
  })

  describe('when the server goes away and comes back', () => {
    it('says that it is not connected, retries, and catches up once the server is back', async () => {
      const port = await freePort()
      const first = await startServer({ port })
      let second: TasklaneServer | undefined
      try {
        await new Api(first.url).create({ name: 'Before the restart' })
        const { page, errors } = await openPage(browser, first.url)
        await waitForTask(page, 'Before the restart')
        await first.stop()
        await waitForText(
          page,
          '#connection',
          'Live updates paused: The server cannot be reached. Retrying…',
        )
        second = await startServer({ port, dir: first.dir })
        await new Api(second.url).create({ name: 'After the restart' })
        await waitForTask(page, 'After the restart', 30_000)
        await waitForText(page, '#connection', '')
        expect(await shownNames(page)).toEqual(['After the restart', 'Before the restart'])
        // Chromium's line for each attempt that found no server (refused, or a socket the
        // stopping server closed under it) or one shutting down (a 503); the page itself
        // logs nothing.
        for (const error of errors)
          expect(error).toMatch(
            /^console: Failed to load resource: .*(net::ERR_(CONNECTION_REFUSED|CONNECTION_RESET|CONNECTION_CLOSED|SOCKET_NOT_CONNECTED|EMPTY_RESPONSE)|503)/,
          )
      } finally {
        await (second ?? first).close()
      }
    }, 180_000)
  })
})
