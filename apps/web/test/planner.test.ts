// The planner's parts of the page in Chromium: notes, due and priority in the editor with
// the task's history, due dates in words and the overdue mark, the manual order by keyboard
// and by drag and drop, the shortcuts' help, the search box and the lists beside the tasks.
import type { Task } from '@tasklane/client'
import type { TasklaneServer } from '@tasklane/testing/server'
import type { Browser, Page, Request } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hasChromium, openPage, seriousViolations } from './support/browser.js'
import { type BrowserSession, startBrowserSession } from './support/browser-session.js'
import {
  Api,
  filterBy,
  focused,
  row,
  serverHolds,
  shownNames,
  waitForNames,
  waitForText,
} from './support/tasks.js'

let browser: Browser
/** This file's Chromium and server, in its turn (support/browser-session.ts). */
let session: BrowserSession | undefined
let server: TasklaneServer
let api: Api

/** 10:00 UTC on 28 November 2026: 05:00 the same day in New York, the page's zone below. */
const NOW = new Date('2026-11-28T10:00:00Z')
const NEW_YORK = { context: { timezoneId: 'America/New_York' }, fixedTime: NOW }

/** Shows the view in the manual order ("My order"), filtered by `tag`. */
async function inMyOrder(page: Page, tag: string): Promise<void> {
  await page.getByLabel('Order').selectOption('manual')
  await page.locator('#tasks-heading').filter({ hasText: 'Tasks, in my order' }).waitFor()
  await filterBy(page, tag)
}

/** The requests the page sends whose URL path is `path` (a pattern), as they are sent. */
function requestsTo(page: Page, path: RegExp): Request[] {
  const seen: Request[] = []
  page.on('request', (request) => {
    if (path.test(new URL(request.url()).pathname)) seen.push(request)
  })
  return seen
}

/** The server's positions of these tasks, in the order given. */
async function positionsOf(tasks: readonly Task[]): Promise<string[]> {
  return Promise.all(tasks.map(async (task) => (await api.get(task.id))?.position ?? ''))
}

describe.runIf(hasChromium)('the planner', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    session = await startBrowserSession()
    ;({ browser, server } = session)
    api = new Api(server.url)
  }, 300_000)

  afterAll(() => session?.close())

  describe('the editor', () => {
    it('saves notes, a due day and a priority, and shows the task’s history', async () => {
      const task = await api.create({ name: 'Plan the trip', tag: 'details' })
      const { page, errors } = await openPage(browser, server.url, NEW_YORK)
      await filterBy(page, 'details')
      await row(page, task.id).getByRole('button', { name: 'Edit', exact: true }).click()
      await page.getByLabel(`Notes of task #${task.id}`).fill('Book the train\nThen the hotel')
      await page.getByLabel(`Due of task #${task.id}`).fill('2026-11-30')
      await page.getByLabel(`Priority of task #${task.id}`).selectOption('High')
      // The history is read as the editor opens: the task's creation.
      await row(page, task.id).locator('.history li').filter({ hasText: 'created' }).waitFor()
      expect(await seriousViolations(page)).toEqual([])
      await page.getByRole('button', { name: 'Save', exact: true }).click()
      const saved = await serverHolds(api, task.id, (held) => held?.priority === 3)
      expect(saved).toMatchObject({
        notes: 'Book the train\nThen the hotel',
        due: '2026-11-30',
        priority: 3,
        version: 2,
      })
      await waitForText(
        page,
        '#announcer',
        `Saved the notes of task #${task.id}. Task #${task.id} is due 2026-11-30. Task #${task.id}: High priority.`,
      )
      const shown = row(page, task.id)
      expect(await shown.locator('.due').textContent()).toBe('Due in 2 days')
      expect(await shown.locator('.priority').textContent()).toBe('High priority')
      expect(await shown.locator('.notes-preview').textContent()).toBe('Book the train')
      // Again: the change is in the history, newest first; emptied fields are removed.
      await shown.getByRole('button', { name: 'Edit', exact: true }).click()
      const history = shown.locator('.history li')
      await history.filter({ hasText: 'priority none → high' }).waitFor()
      expect(await history.count()).toBe(2)
      expect(await history.first().textContent()).toContain('local: notes none → “Book the train')
      await page.getByLabel(`Notes of task #${task.id}`).fill('')
      await page.getByLabel(`Due of task #${task.id}`).fill('')
      // Ctrl+Enter saves from the notes, where Enter is a new line.
      await page.getByLabel(`Notes of task #${task.id}`).press('Control+Enter')
      const cleared = await serverHolds(api, task.id, (held) => held?.notes === undefined)
      expect(cleared).not.toHaveProperty('due')
      expect(cleared).toMatchObject({ priority: 3, version: 3 })
      expect(errors).toEqual([])
    })

    it('says a due the server refuses beside the due field', async () => {
      const task = await api.create({ name: 'Far future', tag: 'bad-due' })
      const { page, errors } = await openPage(browser, server.url)
      await filterBy(page, 'bad-due')
      await row(page, task.id).getByRole('button', { name: 'Edit', exact: true }).click()
      // An impossible day cannot be picked in the date field: typed as text, the server's words are shown.
      const due = page.getByLabel(`Due of task #${task.id}`)
      await due.evaluate((input: HTMLInputElement) => {
        input.type = 'text'
        input.value = '2026-02-30'
      })
      await page.getByRole('button', { name: 'Save', exact: true }).click()
      const message = page.locator(`#edit-${task.id}-due-error`)
      await message.filter({ hasText: 'due' }).waitFor()
      expect(await due.getAttribute('aria-invalid')).toBe('true')
      expect(await api.get(task.id)).toMatchObject({ version: 1 })
      expect(errors).toEqual([
        expect.stringMatching(/^console: Failed to load resource: .* 400 \(Bad Request\)$/),
      ])
    })
  })

  describe('due dates', () => {
    it('are said in words in the browser’s time zone, and an overdue task is marked', async () => {
      const tomorrow = await api.create({ name: 'Tomorrow', tag: 'due', due: '2026-11-29' })
      const late = await api.create({ name: 'Late', tag: 'due', due: '2026-11-25' })
      const doneLate = await api.create({
        name: 'Done late',
        tag: 'due',
        due: '2026-11-25',
        status: 'done',
      })
      // 09:00 UTC is 04:00 in New York: 4 hours before the page's clock.
      const moment = await api.create({ name: 'Moment', tag: 'due', due: '2026-11-28T09:00:00Z' })
      const undated = await api.create({ name: 'Undated', tag: 'due' })
      const { page, errors } = await openPage(browser, server.url, NEW_YORK)
      await filterBy(page, 'due')
      const said = async (task: Task) => ({
        due: await row(page, task.id).locator('.due').textContent(),
        overdue: await row(page, task.id).evaluate((li) => li.classList.contains('is-overdue')),
      })
      expect(await said(tomorrow)).toEqual({ due: 'Due tomorrow', overdue: false })
      expect(await said(late)).toEqual({ due: '3 days overdue', overdue: true })
      expect(await said(doneLate)).toEqual({ due: 'Due 3 days ago', overdue: false })
      expect(await said(moment)).toEqual({ due: '1 hour overdue', overdue: true })
      expect(await said(undated)).toEqual({ due: '', overdue: false })
      expect(await row(page, late.id).locator('.due').getAttribute('datetime')).toBe('2026-11-25')
      expect(await seriousViolations(page)).toEqual([])
      // In Auckland it is already 23:00 on the 28th: the same tasks, other words.
      const far = await openPage(browser, server.url, {
        context: { timezoneId: 'Pacific/Auckland' },
        fixedTime: new Date('2026-11-28T11:00:00Z'),
      })
      await filterBy(far.page, 'due')
      expect(await row(far.page, tomorrow.id).locator('.due').textContent()).toBe('Due today')
      expect(await row(far.page, late.id).locator('.due').textContent()).toBe('4 days overdue')
      expect([...errors, ...far.errors]).toEqual([])
    })
  })

  describe('the manual order', () => {
    it('moves a task up and down with Alt+↑/↓, sent as a move and announced', async () => {
      const [a, b, c] = [
        await api.create({ name: 'First', tag: 'keys' }),
        await api.create({ name: 'Second', tag: 'keys' }),
        await api.create({ name: 'Third', tag: 'keys' }),
      ] as [Task, Task, Task]
      const { page, errors } = await openPage(browser, server.url)
      await inMyOrder(page, 'keys')
      expect(await shownNames(page)).toEqual(['First', 'Second', 'Third'])
      const moves = requestsTo(page, /^\/tasks\/\d+\/move$/)
      // j twice: the second task; Alt+↑ puts it before the first.
      await page.keyboard.press('j')
      await page.keyboard.press('j')
      expect(await focused(page)).toMatchObject({ row: String(b.id) })
      await page.keyboard.press('Alt+ArrowUp')
      await waitForText(page, '#announcer', 'Moved “Second” before “First”: 1 of 3 in its list.')
      await waitForNames(page, ['Second', 'First', 'Third'])
      expect(moves.map((request) => [request.url(), request.postDataJSON()])).toEqual([
        [`${server.url}/tasks/${b.id}/move`, { before: a.id }],
      ])
      expect(moves[0]?.headers()['if-match']).toBe('"1"')
      // The focus stays on the moved task, which goes on moving: Alt+↓ twice, the last.
      expect(await focused(page)).toMatchObject({ row: String(b.id) })
      await page.keyboard.press('Alt+ArrowDown')
      await waitForText(page, '#announcer', 'Moved “Second” after “First”: 2 of 3 in its list.')
      await page.keyboard.press('Alt+ArrowDown')
      await waitForText(page, '#announcer', 'Moved “Second” after “Third”: 3 of 3 in its list.')
      await waitForNames(page, ['First', 'Third', 'Second'])
      await page.keyboard.press('Alt+ArrowDown')
      await waitForText(page, '#announcer', '“Second” is already last in its list.')
      expect(moves).toHaveLength(3)
      // The server holds that order.
      const [pa, pb, pc] = await positionsOf([a, b, c])
      expect((pa as string) < (pc as string) && (pc as string) < (pb as string)).toBe(true)
      // The region that said it is a polite live region.
      expect(await page.locator('#announcer').getAttribute('aria-live')).toBe('polite')
      expect(errors).toEqual([])
    })

    it('shows a move made elsewhere, live, without a reload', async () => {
      const a = await api.create({ name: 'Here first', tag: 'live-move' })
      const b = await api.create({ name: 'Moved elsewhere', tag: 'live-move' })
      const { page, errors } = await openPage(browser, server.url)
      await inMyOrder(page, 'live-move')
      expect(await shownNames(page)).toEqual(['Here first', 'Moved elsewhere'])
      const response = await fetch(`${server.url}/tasks/${b.id}/move`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ before: a.id }),
      })
      expect(response.status).toBe(200)
      await waitForNames(page, ['Moved elsewhere', 'Here first'])
      expect(errors).toEqual([])
    })

    it('says that moving needs My order when the list is newest first', async () => {
      const task = await api.create({ name: 'Newest', tag: 'no-move' })
      const { page, errors } = await openPage(browser, server.url)
      await filterBy(page, 'no-move')
      await row(page, task.id).focus()
      await page.keyboard.press('Alt+ArrowUp')
      await waitForText(page, '#announcer', 'Choose “My order” (and no search) to move tasks.')
      expect(errors).toEqual([])
    })

    it('moves a task by drag and drop: dropped on the upper half of a row, before it', async () => {
      const [a, b, c] = [
        await api.create({ name: 'Drag one', tag: 'drag' }),
        await api.create({ name: 'Drag two', tag: 'drag' }),
        await api.create({ name: 'Drag three', tag: 'drag' }),
      ] as [Task, Task, Task]
      const { page, errors } = await openPage(browser, server.url)
      await inMyOrder(page, 'drag')
      const moves = requestsTo(page, /^\/tasks\/\d+\/move$/)
      await row(page, c.id)
        .locator('.handle')
        .dragTo(row(page, a.id), { targetPosition: { x: 40, y: 4 } })
      await waitForNames(page, ['Drag three', 'Drag one', 'Drag two'])
      await waitForText(
        page,
        '#announcer',
        'Moved “Drag three” before “Drag one”: 1 of 3 in its list.',
      )
      // And onto the lower half of a row: after it.
      const box = await row(page, b.id).boundingBox()
      await row(page, c.id)
        .locator('.handle')
        .dragTo(row(page, b.id), { targetPosition: { x: 40, y: (box?.height ?? 20) - 4 } })
      await waitForNames(page, ['Drag one', 'Drag two', 'Drag three'])
      expect(moves.map((request) => request.postDataJSON())).toEqual([
        { before: a.id },
        { after: b.id },
      ])
      const [pa, pb, pc] = await positionsOf([a, b, c])
      expect((pa as string) < (pb as string) && (pb as string) < (pc as string)).toBe(true)
      expect(errors).toEqual([])
    })
  })

  describe('the keyboard', () => {
    it('walks the tasks with j and k, marks one done with x, edits it with e', async () => {
      const one = await api.create({ name: 'Walk one', tag: 'walk' })
      const two = await api.create({ name: 'Walk two', tag: 'walk' })
      const { page, errors } = await openPage(browser, server.url)
      await filterBy(page, 'walk')
      // Newest first: two, then one.
      await page.keyboard.press('j')
      expect(await focused(page)).toMatchObject({ row: String(two.id) })
      await page.keyboard.press('j')
      expect(await focused(page)).toMatchObject({ row: String(one.id) })
      await page.keyboard.press('k')
      expect(await focused(page)).toMatchObject({ row: String(two.id) })
      await page.keyboard.press('x')
      await serverHolds(api, two.id, (held) => held?.status === 'done')
      await page.keyboard.press('e')
      expect(await focused(page)).toEqual({ what: `edit-${two.id}-name`, row: String(two.id) })
      // Letters typed in a field are letters, not shortcuts.
      await page.keyboard.type('jkx')
      expect(await page.getByLabel(`Name of task #${two.id}`).inputValue()).toBe('jkx')
      await page.keyboard.press('Escape')
      expect(await api.get(two.id)).toMatchObject({ name: 'Walk two', status: 'done' })
      expect(errors).toEqual([])
    })

    it('opens the shortcuts’ help with ?, closes it with Escape, the focus back where it was', async () => {
      const { page, errors } = await openPage(browser, server.url)
      await page.getByLabel('Filter by tag').focus()
      // In a field, ? is typed.
      await page.keyboard.press('?')
      expect(await page.getByRole('dialog').count()).toBe(0)
      await page.getByLabel('Filter by tag').fill('')
      await page.getByRole('button', { name: 'Filter', exact: true }).focus()
      await page.keyboard.press('?')
      const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' })
      await dialog.waitFor()
      const rows = await dialog.locator('tbody tr').allTextContents()
      expect(rows).toEqual([
        'jNext task',
        'kPrevious task',
        'xMark the task done, or open again',
        'eEdit the task: name, tag, notes, due, priority, history',
        'Alt + ↑Move the task up (in My order)',
        'Alt + ↓Move the task down (in My order)',
        '?This help',
        'EscClose this help, or an editor without saving',
      ])
      expect(await seriousViolations(page)).toEqual([])
      // Keys are the dialog's while it is open: j moves nothing behind it.
      await page.keyboard.press('j')
      await page.keyboard.press('Escape')
      await dialog.waitFor({ state: 'hidden' })
      expect(await focused(page)).toMatchObject({ what: 'Filter' })
      // Its button opens it too, and Close closes it.
      await page.getByRole('button', { name: 'Keyboard shortcuts' }).click()
      await dialog.waitFor()
      await dialog.getByRole('button', { name: 'Close' }).click()
      await dialog.waitFor({ state: 'hidden' })
      expect(await focused(page)).toMatchObject({ what: 'help-open' })
      expect(errors).toEqual([])
    })
  })

  describe('the search box', () => {
    it('asks the server for the words (GET /tasks?q=…&sort=position) and shows what it answers', async () => {
      await api.create({ name: 'Release notes for 2.0', tag: 'search' })
      await api.create({ name: 'Water the plants', tag: 'search', notes: 'the release of spring' })
      const { page, errors } = await openPage(browser, server.url)
      await filterBy(page, 'search')
      const searches = requestsTo(page, /^\/tasks$/)
      await page.getByLabel('Search tasks').fill('releas')
      await page.keyboard.press('Enter')
      await page.locator('#tasks-heading').filter({ hasText: 'Tasks found' }).waitFor()
      await page.waitForFunction(() =>
        document.querySelector('#list-state')?.textContent?.includes('matching “releas”'),
      )
      const asked = searches
        .map((request) => new URL(request.url()))
        .find((url) => url.searchParams.has('q'))
      expect(Object.fromEntries(asked?.searchParams ?? [])).toEqual({
        q: 'releas',
        sort: 'position',
        limit: '100',
        tag: 'search',
      })
      // What the page shows is what the server answers to that very request (the server's
      // search itself is tested on the server).
      const answer = await api.names(`${asked?.searchParams}`)
      expect(await shownNames(page)).toEqual(answer)
      expect(await page.locator('#list-state').textContent()).toBe(
        `Showing ${answer.length} ${answer.length === 1 ? 'task' : 'tasks'} tagged “search” matching “releas”.`,
      )
      // Another filter asks again, with the same words.
      await page.getByRole('radio', { name: 'Open' }).check()
      await expect
        .poll(() =>
          searches.some((request) => {
            const url = new URL(request.url())
            return (
              url.searchParams.get('q') === 'releas' && url.searchParams.get('status') === 'open'
            )
          }),
        )
        .toBe(true)
      // Emptied, the whole view again, newest first.
      await page.getByLabel('Search tasks').fill('')
      await page.locator('#tasks-heading').filter({ hasText: 'Tasks, newest first' }).waitFor()
      await waitForNames(page, ['Water the plants', 'Release notes for 2.0'])
      expect(errors).toEqual([])
    })
  })

  describe('color schemes', () => {
    for (const colorScheme of ['light', 'dark'] as const)
      it(`has no serious axe-core violation in the ${colorScheme} scheme, narrow, an editor open`, async () => {
        await api.create({
          name: 'Overdue and high',
          tag: 'scheme',
          due: '2026-11-20',
          priority: 3,
        })
        const task = await api.create({
          name: 'Soon',
          tag: 'scheme',
          due: '2026-11-29',
          priority: 1,
        })
        const { page, errors } = await openPage(browser, server.url, {
          context: { colorScheme, viewport: { width: 420, height: 900 } },
          fixedTime: NOW,
        })
        await inMyOrder(page, 'scheme')
        await row(page, task.id).getByRole('button', { name: 'Edit', exact: true }).click()
        await row(page, task.id).locator('.history li').first().waitFor()
        expect(await seriousViolations(page)).toEqual([])
        expect(errors).toEqual([])
      })
  })

  describe('the lists', () => {
    it('are listed beside the tasks, and one chosen shows its tasks and takes new ones', async () => {
      const response = await fetch(`${server.url}/list`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Garden' }),
      })
      expect(response.status).toBe(201)
      const garden = (await response.json()) as { id: number }
      await api.create({ name: 'Prune the roses', listId: garden.id })
      const { page, errors } = await openPage(browser, server.url)
      const nav = page.getByRole('navigation', { name: 'Lists' })
      await nav.getByRole('button', { name: 'Garden' }).click()
      await waitForNames(page, ['Prune the roses'])
      expect(await nav.getByRole('button', { name: 'Garden' }).getAttribute('aria-current')).toBe(
        'true',
      )
      await page.getByLabel('Name').fill('Mow the lawn')
      await page.getByRole('button', { name: 'Add task' }).click()
      await waitForNames(page, ['Mow the lawn', 'Prune the roses'])
      const made = (await api.names(`list=${garden.id}&order=desc`))[0]
      expect(made).toBe('Mow the lawn')
      await nav.getByRole('button', { name: 'All lists' }).click()
      await page.waitForFunction(() => document.querySelectorAll('#task-list li').length > 2)
      expect(errors).toEqual([])
    })
  })
})
