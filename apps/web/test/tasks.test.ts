import type { TasklaneServer } from '@tasklane/testing/server'
import type { Browser } from 'playwright-core'
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
  waitForTask,
  waitForText,
} from './support/tasks.js'

let browser: Browser
/** This file's Chromium and server, in its turn (support/browser-session.ts). */
let session: BrowserSession | undefined
let server: TasklaneServer
let api: Api

/** Chromium's own line for a request the server refused with this status. */
const refused = (status: number) =>
  expect.stringMatching(new RegExp(`^console: Failed to load resource: .* ${status} \\(`))

describe.runIf(hasChromium)('each task’s controls, by keyboard alone', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    session = await startBrowserSession()
    ;({ browser, server } = session)
    api = new Api(server.url)
  }, 300_000)

  afterAll(() => session?.close())

  it('marks a task done and open again with Space on its checkbox; done ones are struck through', async () => {
    const first = await api.create({ name: 'Tick me', tag: 'tick' })
    const second = await api.create({ name: 'And me', tag: 'tick' })
    const { page, errors } = await openPage(browser, server.url)
    await filterBy(page, 'tick')
    // Tab goes from the status filter through each row (checkbox, tag, Edit, Delete), newest first.
    await page.getByRole('radio', { name: 'All' }).focus()
    const order = []
    for (let i = 0; i < 8; i += 1) {
      await page.keyboard.press('Tab')
      order.push(await focused(page))
    }
    expect(order).toEqual(
      [second.id, first.id].flatMap((id) =>
        ['toggle', 'filter-tag', 'edit', 'delete'].map((what) => ({ what, row: String(id) })),
      ),
    )
    for (const key of ['Shift+Tab', 'Shift+Tab', 'Shift+Tab']) await page.keyboard.press(key)
    expect(await focused(page)).toEqual({ what: 'toggle', row: String(first.id) })
    await page.keyboard.press('Space')
    await serverHolds(api, first.id, (task) => task?.status === 'done')
    const checkbox = row(page, first.id).getByRole('checkbox', { name: 'Tick me' })
    await waitForText(page, '#announcer', 'Marked “Tick me” done.')
    expect(await checkbox.isChecked()).toBe(true)
    expect(await row(page, first.id).getAttribute('class')).toContain('is-done')
    const decoration = () =>
      row(page, first.id)
        .locator('.name')
        .evaluate((name) => getComputedStyle(name).textDecorationLine)
    expect(await decoration()).toBe('line-through')
    expect(await focused(page)).toEqual({ what: 'toggle', row: String(first.id) })
    await page.keyboard.press('Space')
    await serverHolds(api, first.id, (task) => task?.status === 'open' && task.version === 3)
    await waitForText(page, '#announcer', 'Marked “Tick me” open again.')
    expect(await checkbox.isChecked()).toBe(false)
    expect(await decoration()).toBe('none')
    expect(errors).toEqual([])
  })

  it('edits with Enter on Edit or F2, saves with Enter, cancels with Escape or by leaving the editor', async () => {
    const task = await api.create({ name: 'Rename me', tag: 'rename' })
    const { page, errors } = await openPage(browser, server.url)
    await filterBy(page, 'rename')
    const field = page.locator(`#edit-${task.id}-name`)
    const at = (what: string) => ({ what, row: String(task.id) })
    await row(page, task.id).getByRole('button', { name: 'Edit' }).focus()
    await page.keyboard.press('Enter')
    // The field takes the focus with the name selected: typing replaces it.
    expect(await focused(page)).toEqual(at(`edit-${task.id}-name`))
    expect(await field.inputValue()).toBe('Rename me')
    await page.keyboard.type('Renamed by keyboard')
    await page.keyboard.press('Enter')
    await waitForTask(page, 'Renamed by keyboard')
    expect(await api.get(task.id)).toMatchObject({ name: 'Renamed by keyboard', version: 2 })
    expect(await field.count()).toBe(0)
    expect(await focused(page)).toEqual(at('edit'))

    await page.keyboard.press('F2')
    await page.keyboard.type('Not kept')
    await page.keyboard.press('Escape')
    expect(await field.count()).toBe(0)
    expect(await focused(page)).toEqual(at('edit'))

    // Leaving the editor (Tab past its fields, Save and Cancel) cancels as well: only a save sends.
    await page.keyboard.press('F2')
    await page.keyboard.type('Left behind')
    const inEditor = () =>
      page.evaluate(() => document.activeElement?.closest('form.editor') !== null)
    for (let tabs = 0; tabs < 20 && (await inEditor()); tabs += 1) await page.keyboard.press('Tab')
    await field.waitFor({ state: 'detached' })
    expect(await shownNames(page)).toEqual(['Renamed by keyboard'])
    expect(await api.get(task.id)).toMatchObject({ name: 'Renamed by keyboard', version: 2 })

    // A name the server refuses keeps the editor open, with the server's message.
    await row(page, task.id).getByRole('button', { name: 'Edit' }).focus()
    await page.keyboard.press('F2')
    await field.fill('x'.repeat(201))
    await page.keyboard.press('Enter')
    const alert = row(page, task.id).getByRole('alert')
    await alert
      .filter({ hasText: 'The name can have at most 200 characters: this one has 201.' })
      .waitFor()
    expect(await focused(page)).toEqual(at(`edit-${task.id}-name`))
    await page.keyboard.press('Escape')
    expect(await api.get(task.id)).toMatchObject({ name: 'Renamed by keyboard', version: 2 })
    expect(errors).toEqual([refused(400)])
  })

  it('deletes a task with its Delete button; the focus goes to the next task', async () => {
    const kept = await api.create({ name: 'Keep me', tag: 'delete' })
    const gone = await api.create({ name: 'Delete me', tag: 'delete' })
    const { page, errors } = await openPage(browser, server.url)
    await filterBy(page, 'delete')
    await row(page, gone.id).getByRole('button', { name: 'Delete', exact: true }).focus()
    await page.keyboard.press('Enter')
    await waitForNames(page, ['Keep me'])
    expect(await api.get(gone.id)).toBeUndefined()
    expect(await focused(page)).toEqual({ what: 'toggle', row: String(kept.id) })
    await waitForText(
      page,
      '#announcer',
      'Deleted “Delete me”. Undo, after the list, brings it back as a new task.',
    )
    expect(errors).toEqual([])
  })

  it('filters by status with the arrow keys; a task marked done leaves the open ones', async () => {
    await api.create({ name: 'Open one', tag: 'status' })
    await api.create({ name: 'Done one', tag: 'status', status: 'done' })
    const openTwo = await api.create({ name: 'Open two', tag: 'status' })
    const { page, errors } = await openPage(browser, server.url)
    await filterBy(page, 'status')
    expect(await shownNames(page)).toEqual(['Open two', 'Done one', 'Open one'])
    await page.getByRole('radio', { name: 'All' }).focus()
    await page.keyboard.press('ArrowRight')
    await waitForNames(page, ['Open two', 'Open one'])
    expect(await page.locator('#list-state').textContent()).toBe(
      'Showing 2 open tasks tagged “status”.',
    )
    // The focus stays on the filter, so that the arrows go on choosing.
    expect(
      await page.getByRole('radio', { name: 'Open' }).evaluate((e) => e === document.activeElement),
    ).toBe(true)
    await page.keyboard.press('ArrowRight')
    await waitForNames(page, ['Done one'])
    await page.keyboard.press('ArrowLeft')
    await waitForNames(page, ['Open two', 'Open one'])
    await row(page, openTwo.id).getByRole('checkbox').focus()
    await page.keyboard.press('Space')
    await waitForNames(page, ['Open one'])
    expect((await focused(page)).what).toBe('toggle')
    await page.getByRole('button', { name: 'Show all' }).click()
    await page.waitForFunction(() =>
      /^Showing \d+ tasks\.$/.test(document.querySelector('#list-state')?.textContent ?? ''),
    )
    expect((await shownNames(page)).slice(0, 3)).toEqual(['Open two', 'Done one', 'Open one'])
    expect(await page.getByRole('radio', { name: 'All' }).isChecked()).toBe(true)
    expect(errors).toEqual([])
  })

  describe('around the list', () => {
    it('keeps a 64-character tag and a 200-character name within a 400 px wide page', async () => {
      const tag = 'a-tag-without-spaces-that-goes-on-to-the-limit-of-64-characters-'.slice(0, 64)
      const name = 'A name that is as long as a name may be. '.repeat(5).slice(0, 200)
      const task = await api.create({ name, tag })
      const { page, errors } = await openPage(browser, server.url)
      await page.setViewportSize({ width: 400, height: 800 })
      await filterBy(page, tag)
      const sizes = await row(page, task.id).evaluate((li) => {
        const box = (css: string) => (li.querySelector(css) as HTMLElement).getBoundingClientRect()
        const lineHeight = Number.parseFloat(getComputedStyle(li).lineHeight)
        return {
          page: document.documentElement.scrollWidth,
          row: li.getBoundingClientRect(),
          name: box('.name'),
          lines: Math.round(box('.name').height / lineHeight),
          tag: box('.tag'),
        }
      })
      // Nothing overflows sideways, and the name has the row's width, not what the tag leaves.
      expect(sizes.page).toBeLessThanOrEqual(400)
      expect(sizes.name.width).toBeGreaterThan(0.75 * sizes.row.width)
      expect(sizes.lines).toBeLessThanOrEqual(8)
      expect(sizes.tag.right).toBeLessThanOrEqual(sizes.row.right)
      expect(await seriousViolations(page)).toEqual([])
      expect(errors).toEqual([])
    })

    it('disables the pager and says that it is loading until the tasks arrive', async () => {
      for (let i = 1; i <= 11; i += 1) await api.create({ name: `Loading ${i}` })
      const page = await (await browser.newContext()).newPage()
      const errors: string[] = []
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text())
      })
      let release = () => {}
      const held = new Promise<void>((resolve) => {
        release = resolve
      })
      await page.route(
        (url) => url.pathname === '/tasks',
        async (route) => {
          await held
          await route.continue()
        },
      )
      await page.goto(`${server.url}/`)
      await page.waitForFunction(() => document.querySelector('script') !== null)
      const pager = ['Newest', 'Previous page', 'Next page'].map((name) =>
        page.getByRole('button', { name }),
      )
      for (const button of pager) expect(await button.isDisabled()).toBe(true)
      expect(await page.locator('#list-state').textContent()).toBe('Loading tasks…')
      expect(await page.locator('#task-list').getAttribute('aria-busy')).toBe('true')
      release()
      await page.waitForFunction(() => document.documentElement.dataset.ready === 'true')
      expect(await page.getByRole('button', { name: 'Next page' }).isDisabled()).toBe(false)
      expect(await page.locator('#list-state').textContent()).toBe('Showing 10 tasks.')
      expect(await page.locator('#task-list').getAttribute('aria-busy')).toBe('false')
      expect(errors).toEqual([])
    })

    it('clears the create form’s message once the list is filtered or paged', async () => {
      for (let i = 1; i <= 11; i += 1) await api.create({ name: `Cleared ${i}`, tag: 'cleared' })
      const { page, errors } = await openPage(browser, server.url)
      const message = page.locator('#create-name-error')
      const refuse = async () => {
        await page.getByLabel('Name', { exact: true }).fill(' ')
        await page.getByRole('button', { name: 'Add task' }).click()
        await message.filter({ hasText: 'Give the task a name.' }).waitFor()
      }
      await refuse()
      await filterBy(page, 'cleared')
      expect(await message.textContent()).toBe('')
      await refuse()
      await page.getByRole('button', { name: 'Next page' }).click()
      await waitForText(page, '#page-range', 'Task 11 of 11')
      expect(await message.textContent()).toBe('')
      await refuse()
      await page.getByRole('radio', { name: 'Done' }).check()
      await waitForText(page, '#list-state', 'No done tasks tagged “cleared” yet.')
      expect(await message.textContent()).toBe('')
      expect(errors).toEqual(Array(3).fill(refused(400)))
    })

    it('has no serious or critical axe-core violation with an editor open on its message', async () => {
      const done = await api.create({ name: 'Already done', tag: 'axe', status: 'done' })
      await api.create({ name: 'Still open', tag: 'axe' })
      const { page, errors } = await openPage(browser, server.url)
      await filterBy(page, 'axe')
      await row(page, done.id).getByRole('button', { name: 'Edit' }).click()
      await page.locator(`#edit-${done.id}-name`).fill('')
      await page.keyboard.press('Enter')
      await row(page, done.id)
        .getByRole('alert')
        .filter({ hasText: 'Give the task a name.' })
        .waitFor()
      expect(await seriousViolations(page)).toEqual([])
      expect(errors).toEqual([refused(400)])
    })
  })
})
