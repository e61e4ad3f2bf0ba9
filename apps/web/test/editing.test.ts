import type { TasklaneServer } from '@tasklane/testing/server'
import type { Browser, Page } from 'playwright-core'
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

/** Opens the editor of task `id` with its Edit button; resolves to the editor's tag field. */
async function editTagOf(page: Page, id: number) {
  await row(page, id).getByRole('button', { name: 'Edit', exact: true }).click()
  return page.getByLabel(`Tag of task #${id}`)
}

/** Whether the element matching `selector` is shown (not hidden, in the layout). */
const isShown = (page: Page, selector: string) => page.locator(selector).isVisible()

describe.runIf(hasChromium)('changing and deleting a task', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    session = await startBrowserSession()
    ;({ browser, server } = session)
    api = new Api(server.url)
  }, 300_000)

  afterAll(() => session?.close())

  describe('the row’s editor', () => {
    it('hides Edit while it is open, beside its own Save and Cancel', async () => {
      const task = await api.create({ name: 'Edit me', tag: 'editor' })
      const { page, errors } = await openPage(browser, server.url)
      await filterBy(page, 'editor')
      const edit = row(page, task.id).getByRole('button', { name: 'Edit', exact: true })
      await edit.click()
      await page.locator(`#edit-${task.id}-name`).waitFor()
      expect(await edit.isVisible()).toBe(false)
      const buttons = await row(page, task.id).getByRole('button').allTextContents()
      expect(buttons).toEqual(['Save', 'Cancel', 'editor', 'Delete'])
      await page.keyboard.press('Escape')
      expect(await edit.isVisible()).toBe(true)
      expect(await focused(page)).toEqual({ what: 'edit', row: String(task.id) })
      expect(errors).toEqual([])
    })

    it('changes the tag, and removes it when the field is emptied', async () => {
      const task = await api.create({ name: 'Retag me', tag: 'retag' })
      const { page, errors } = await openPage(browser, server.url)
      await filterBy(page, 'retag')
      const tag = await editTagOf(page, task.id)
      expect(await tag.inputValue()).toBe('retag')
      await tag.fill('retagged')
      await page.keyboard.press('Enter')
      await serverHolds(api, task.id, (held) => held?.tag === 'retagged')
      await waitForText(page, '#announcer', `Tagged task #${task.id} “retagged”.`)

      await filterBy(page, 'retagged')
      await (await editTagOf(page, task.id)).fill('')
      await page.keyboard.press('Enter')
      const untagged = await serverHolds(api, task.id, (held) => held?.tag === undefined)
      expect(untagged).toMatchObject({ name: 'Retag me', version: 3 })
      expect(untagged).not.toHaveProperty('tag')
      await waitForText(page, '#announcer', `Removed the tag of task #${task.id}.`)
      expect(errors).toEqual([])
    })

    it('says a tag too long in words beside the tag, which stays open with what was typed', async () => {
      const task = await api.create({ name: 'Long tag', tag: 'long' })
      const { page, errors } = await openPage(browser, server.url)
      await filterBy(page, 'long')
      const tag = await editTagOf(page, task.id)
      await tag.fill('t'.repeat(65))
      await page.keyboard.press('Enter')
      const said = 'The tag can have at most 64 characters: this one has 65.'
      await page.locator(`#edit-${task.id}-tag-error`).filter({ hasText: said }).waitFor()
      expect(await tag.getAttribute('aria-invalid')).toBe('true')
      expect(await focused(page)).toEqual({ what: `edit-${task.id}-tag`, row: String(task.id) })
      expect(await tag.inputValue()).toBe('t'.repeat(65))
      expect(await seriousViolations(page)).toEqual([])
      expect(errors).toEqual([
        expect.stringMatching(/^console: Failed to load resource: .* 400 \(Bad Request\)$/),
      ])
    })
  })

  describe('a task’s tag', () => {
    it('filters the list by that tag when clicked', async () => {
      await api.create({ name: 'Untagged' })
      const tagged = await api.create({ name: 'Tagged', tag: 'click-me' })
      await api.create({ name: 'Tagged too', tag: 'click-me' })
      const { page, errors } = await openPage(browser, server.url)
      await row(page, tagged.id).getByRole('button', { name: 'click-me' }).click()
      await waitForNames(page, ['Tagged too', 'Tagged'])
      expect(await page.getByLabel('Filter by tag').inputValue()).toBe('click-me')
      expect(await page.locator('#list-state').textContent()).toBe(
        'Showing 2 tasks tagged “click-me”.',
      )
      expect(await focused(page)).toEqual({ what: 'tasks-heading', row: undefined })
      expect(errors).toEqual([])
    })
  })

  describe('a delete', () => {
    it('shows a notice with Undo, which brings the task back as a new one with its name, tag and status', async () => {
      const stays = await api.create({ name: 'Stays', tag: 'undo' })
      const gone = await api.create({ name: 'Comes back', tag: 'undo', status: 'done' })
      const { page, errors } = await openPage(browser, server.url)
      await filterBy(page, 'undo')
      await row(page, gone.id).getByRole('button', { name: 'Delete', exact: true }).click()
      await waitForNames(page, ['Stays'])
      expect(await isShown(page, '#undo')).toBe(true)
      expect(await page.locator('#undo-text').textContent()).toBe(
        'Deleted “Comes back”. Undo brings it back as a new task.',
      )
      expect(await seriousViolations(page)).toEqual([])
      // By keyboard: the Undo button comes right after the list.
      await row(page, stays.id).getByRole('button', { name: 'Delete', exact: true }).focus()
      await page.keyboard.press('Tab')
      expect(await focused(page)).toEqual({ what: 'undo-button', row: undefined })
      await page.keyboard.press('Enter')
      await waitForNames(page, ['Comes back', 'Stays'])
      const restored = (await api.names('order=desc&tag=undo&limit=1'))[0]
      expect(restored).toBe('Comes back')
      const text = await page.locator('#undo-text').textContent()
      const id = Number(/^Restored “Comes back” as task #(\d+)\.$/.exec(text ?? '')?.[1])
      expect(id).toBeGreaterThan(gone.id)
      expect(await api.get(id)).toMatchObject({ name: 'Comes back', tag: 'undo', status: 'done' })
      expect(await api.get(gone.id)).toBeUndefined()
      // The Undo button went with the task's return: the focus is on the list's heading.
      expect(await page.getByRole('button', { name: 'Undo', exact: true }).isVisible()).toBe(false)
      expect(await focused(page)).toEqual({ what: 'tasks-heading', row: undefined })
      await waitForText(page, '#announcer', `Restored “Comes back” as task #${id}.`)
      expect(errors).toEqual([])
    })

    it('takes the notice away after six seconds, unless the pointer or the focus is on it', async () => {
      const gone = await api.create({ name: 'Short notice', tag: 'timeout' })
      const { page, errors } = await openPage(browser, server.url)
      await filterBy(page, 'timeout')
      await row(page, gone.id).getByRole('button', { name: 'Delete', exact: true }).click()
      await page.locator('#undo').waitFor({ state: 'visible' })
      // Held by the focus well past its time: still there, Undo with it.
      await page.getByRole('button', { name: 'Undo', exact: true }).focus()
      await page.waitForTimeout(7000)
      expect(await isShown(page, '#undo')).toBe(true)
      // Let go, it leaves within its six seconds.
      await page.getByLabel('Filter by tag').focus()
      const left = Date.now()
      await page.locator('#undo').waitFor({ state: 'hidden', timeout: 10_000 })
      expect(Date.now() - left).toBeGreaterThan(5000)
      expect(await shownNames(page)).toEqual([])
      expect(await api.names('order=desc&tag=timeout')).toEqual([])
      expect(errors).toEqual([])
    })
  })
})
