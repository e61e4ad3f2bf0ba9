// The page and the caller's rights in Chromium: a viewer sees a list's tasks with no control
// to change them, an editor sees the controls; a right taken away while the page is open
// (a member removed, a role lowered) shows without a reload.
import { createClient, type List, type Task, type TasklaneClient } from '@tasklane/client'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hasChromium, openPage, seriousViolations } from './support/browser.js'
import { type BrowserSession, startBrowserSession } from './support/browser-session.js'
import { row, waitForNames, waitForTask, waitForText } from './support/tasks.js'

const ADMIN_TOKEN = 'open-sesame'
const READ_ONLY = 'You can read this task but not change it.'
/** The tasks of the list Shared, newest first. */
const SHARED_NAMES = ['Read and done', 'Read me']

/** This file's Chromium and a server with API_TOKEN, in its turn (support/browser-session.ts). */
let session: BrowserSession | undefined
let admin: TasklaneClient
let shared: List
let own: List
let readMe: Task
let doneOne: Task

/** An access token of `principal` (whose roles are its memberships). */
async function tokenOf(principal: string): Promise<string> {
  return (await admin.createToken({ name: `page of ${principal}`, principal })).token
}

/** The tabs opened, each with the console errors and exceptions it had. */
const opened = new Map<Page, string[]>()

/** Opens the page (which asks for a token) and gives it `token`: the lists then show. */
async function pageWith(token: string): Promise<Page> {
  const { browser, server } = session as BrowserSession
  const { page, errors } = await openPage(browser, server.url)
  opened.set(page, errors)
  await page.getByRole('textbox', { name: 'Token' }).fill(token)
  await page.keyboard.press('Enter')
  await switcher(page).getByRole('button', { name: 'All lists' }).waitFor()
  return page
}

const switcher = (page: Page) => page.getByRole('navigation', { name: 'Lists' })

/**
 * Closes the tab, checking that it logged nothing but Chromium's line for each answer of
 * these statuses (the 401 that asks for the token, a 403 or 404 the test brings about).
 */
async function closeChecked(page: Page, statuses: readonly number[]): Promise<void> {
  const failed = new RegExp(`^console: Failed to load resource: .* (${statuses.join('|')}) \\(`)
  expect((opened.get(page) ?? []).filter((error) => !failed.test(error))).toEqual([])
  await page.context().close()
}

/** Shows the tasks of the list named `name`. */
async function choose(page: Page, name: string): Promise<void> {
  await switcher(page).getByRole('button', { name, exact: true }).click()
}

/** The names of the lists the switcher offers, in order. */
const offered = (page: Page) =>
  switcher(page)
    .getByRole('button')
    .evaluateAll((buttons) => buttons.map((button) => button.textContent))

/** How many of the matching elements are visible. */
const visibleCount = (page: Page, selector: string) =>
  page
    .locator(selector)
    .evaluateAll(
      (elements) =>
        elements.filter((e) => (e as HTMLElement).checkVisibility({ visibilityProperty: true }))
          .length,
    )

describe.runIf(hasChromium)('the page and the caller’s rights', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    session = await startBrowserSession({ apiToken: ADMIN_TOKEN })
    admin = createClient({ baseUrl: session.server.url, token: ADMIN_TOKEN })
    shared = await admin.createList({ name: 'Shared' })
    own = await admin.createList({ name: 'Own' })
    readMe = await admin.createTask({ name: 'Read me', listId: shared.id })
    doneOne = await admin.createTask({ name: 'Read and done', listId: shared.id, status: 'done' })
    await admin.createTask({ name: 'Mine', listId: own.id })
  }, 300_000)

  afterAll(() => session?.close())

  it('shows a viewer the tasks and no control to change them; an editor the controls', async () => {
    await admin.putMember(shared.id, 'vera', 'viewer')
    await admin.putMember(own.id, 'vera', 'editor')
    await admin.putMember(shared.id, 'ed', 'editor')
    const viewer = await pageWith(await tokenOf('vera'))
    await choose(viewer, 'Shared')
    await waitForNames(viewer, SHARED_NAMES)
    await waitForText(viewer, '#access-note', 'You can read this list but not change it.')
    expect(await viewer.locator('#create-form').isVisible()).toBe(false)
    expect(await viewer.getByRole('textbox', { name: 'Name' }).count()).toBe(0)
    expect(await visibleCount(viewer, '#task-list input[type="checkbox"]')).toBe(0)
    expect(await visibleCount(viewer, '#task-list [data-action="edit"]')).toBe(0)
    expect(await visibleCount(viewer, '#task-list [data-action="delete"]')).toBe(0)
    // The done task still says so, in words, where its checkbox would.
    expect(await row(viewer, doneOne.id).locator('.status').textContent()).toBe('Done')
    expect(await seriousViolations(viewer)).toEqual([])
    // No drag handle in the manual order, and the shortcuts change nothing.
    await viewer.getByLabel('Order').selectOption('manual')
    await viewer.locator('#tasks-heading').filter({ hasText: 'Tasks, in my order' }).waitFor()
    expect(await visibleCount(viewer, '#task-list .handle')).toBe(0)
    await row(viewer, readMe.id).focus()
    for (const key of ['e', 'F2', 'x', 'Alt+ArrowDown']) {
      await viewer.evaluate(() => {
        ;(document.getElementById('announcer') as HTMLElement).textContent = ''
      })
      await viewer.keyboard.press(key)
      await waitForText(viewer, '#announcer', READ_ONLY)
    }
    expect(await viewer.locator('#task-list form').count()).toBe(0)
    expect((await admin.getTask(readMe.id)).status).toBe('open')
    // In the list where vera is an editor, the controls are back.
    await choose(viewer, 'Own')
    await waitForNames(viewer, ['Mine'])
    await viewer.locator('#create-form').waitFor({ state: 'visible' })
    expect(await viewer.locator('#access-note').textContent()).toBe('')
    expect(await visibleCount(viewer, '#task-list [data-action="edit"]')).toBe(1)
    await closeChecked(viewer, [401])

    const editor = await pageWith(await tokenOf('ed'))
    await choose(editor, 'Shared')
    await waitForNames(editor, SHARED_NAMES)
    await editor.locator('#create-form').waitFor({ state: 'visible' })
    expect(await editor.locator('#access-note').textContent()).toBe('')
    expect(await visibleCount(editor, '#task-list input[type="checkbox"]')).toBe(2)
    expect(await visibleCount(editor, '#task-list [data-action="edit"]')).toBe(2)
    expect(await visibleCount(editor, '#task-list [data-action="delete"]')).toBe(2)
    await closeChecked(editor, [401])
  })

  it('takes the controls away when a change is refused for a role lowered meanwhile', async () => {
    const editor = await pageWith(await tokenOf('ed'))
    await choose(editor, 'Shared')
    await waitForNames(editor, SHARED_NAMES)
    await row(editor, readMe.id).getByRole('button', { name: 'Edit' }).waitFor()
    await admin.putMember(shared.id, 'ed', 'viewer')
    // The page still shows the controls it had: the refusal makes it read the rights again.
    await row(editor, readMe.id).getByRole('checkbox').click()
    await waitForText(editor, '#access-note', 'You can read this list but not change it.')
    await editor.locator('#create-form').waitFor({ state: 'hidden' })
    expect(await visibleCount(editor, '#task-list input[type="checkbox"]')).toBe(0)
    expect(await visibleCount(editor, '#task-list [data-action="edit"]')).toBe(0)
    expect(await row(editor, readMe.id).locator('.notice').textContent()).toMatch(/^Not saved: /)
    expect((await admin.getTask(readMe.id)).status).toBe('open')
    await closeChecked(editor, [401, 403])
  })

  it('moves a removed member off the list it was shown, without a reload', async () => {
    const viewer = await pageWith(await tokenOf('vera'))
    await choose(viewer, 'Shared')
    await waitForNames(viewer, SHARED_NAMES)
    await viewer.evaluate(() => {
      ;(window as unknown as { notReloaded: boolean }).notReloaded = true
    })
    await admin.removeMember(shared.id, 'vera')
    const notice = 'The list “Shared” is no longer available to you: showing “Own”.'
    await waitForText(viewer, '#list-notice', notice)
    expect(await viewer.locator('#announcer').textContent()).toBe(notice)
    expect(await offered(viewer)).toEqual(['All lists', 'Own'])
    await waitForTask(viewer, 'Mine')
    expect(await viewer.locator('#task-list .name').allTextContents()).toEqual(['Mine'])
    expect(await switcher(viewer).locator('[aria-current="true"]').textContent()).toBe('Own')
    expect(
      await viewer.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded),
    ).toBe(true)
    await closeChecked(viewer, [401, 404])
  })

  it('drops a list lost while all lists are shown', async () => {
    await admin.putMember(shared.id, 'vera', 'viewer')
    const viewer = await pageWith(await tokenOf('vera'))
    await waitForTask(viewer, 'Read me')
    await waitForTask(viewer, 'Mine')
    expect(await offered(viewer)).toEqual(['All lists', 'Shared', 'Own'])
    await admin.removeMember(shared.id, 'vera')
    const notice = 'The list “Shared” is no longer available to you.'
    await waitForText(viewer, '#list-notice', notice)
    expect(await viewer.locator('#announcer').textContent()).toBe(notice)
    expect(await offered(viewer)).toEqual(['All lists', 'Own'])
    expect(await viewer.locator('#task-list .name').allTextContents()).toEqual(['Mine'])
    await closeChecked(viewer, [401])
  })

  it('says a caller who lost its last list is a member of none', async () => {
    await admin.putMember(own.id, 'solo', 'viewer')
    const viewer = await pageWith(await tokenOf('solo'))
    await waitForTask(viewer, 'Mine')
    expect(await viewer.locator('#access-note').textContent()).toBe(
      'You can read these lists but not change them.',
    )
    await admin.removeMember(own.id, 'solo')
    await waitForText(viewer, '#list-notice', 'The list “Own” is no longer available to you.')
    await waitForText(
      viewer,
      '#access-note',
      'You are a member of no list yet: an owner of one can add you.',
    )
    expect(await offered(viewer)).toEqual(['All lists'])
    await closeChecked(viewer, [401])
  })
})
