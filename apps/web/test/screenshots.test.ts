// The planner as a person sees it, light and dark, wide and narrow: no serious axe-core
// violation and nothing wider than the window in any of them. `pnpm --filter @tasklane/web
// screenshots` keeps the four as docs/images/planner-{light,dark}-{wide,narrow}.png.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { TasklaneServer } from '@tasklane/testing/server'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hasChromium, openPage, seriousViolations } from './support/browser.js'
import { type BrowserSession, startBrowserSession } from './support/browser-session.js'
import { Api, row, waitForNames } from './support/tasks.js'

let browser: Browser
let session: BrowserSession | undefined
let server: TasklaneServer

/** Where the images go, when asked for (relative to the repository's root). */
const OUT = process.env.TASKLANE_SCREENSHOTS
const ROOT = join(import.meta.dirname, '../../..')

/** Makes a list and returns its id. */
async function createList(name: string): Promise<number> {
  const response = await fetch(`${server.url}/list`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  })
  expect(response.status).toBe(201)
  return ((await response.json()) as { id: number }).id
}

describe.runIf(hasChromium)(
  'the planner, light and dark, wide and narrow',
  { timeout: 90_000 },
  () => {
    let editedId = 0

    beforeAll(async () => {
      session = await startBrowserSession()
      ;({ browser, server } = session)
      const api = new Api(server.url)
      const work = await createList('Work')
      await createList('Home')
      const tasks = [
        { name: 'Send the quarterly report', due: '2026-11-25', priority: 3, tag: 'finance' },
        {
          name: 'Review the pull request on paging',
          due: '2026-11-29',
          priority: 2,
          tag: 'code',
          notes: 'Check the cursor at the last page\nand the Link header',
        },
        { name: 'Plan the sprint review', due: '2026-12-03', priority: 1, tag: 'team' },
        { name: 'Write the release notes for 1.1', tag: 'docs' },
        { name: 'Book the meeting room', status: 'done' as const, due: '2026-11-26' },
      ]
      for (const task of tasks) {
        const made = await api.create({ ...task, listId: work })
        if (task.notes !== undefined) editedId = made.id
      }
    }, 300_000)

    afterAll(() => session?.close())

    for (const colorScheme of ['light', 'dark'] as const)
      for (const [size, viewport] of [
        ['wide', { width: 1100, height: 760 }],
        ['narrow', { width: 390, height: 1100 }],
      ] as const)
        it(`${colorScheme}, ${size}`, async () => {
          const { page, errors } = await openPage(browser, server.url, {
            context: { colorScheme, viewport },
            fixedTime: new Date('2026-11-28T10:00:00Z'),
          })
          await page
            .getByRole('navigation', { name: 'Lists' })
            .getByRole('button', { name: 'Work' })
            .click()
          await page.getByLabel('Order').selectOption('manual')
          await waitForNames(page, [
            'Send the quarterly report',
            'Review the pull request on paging',
            'Plan the sprint review',
            'Write the release notes for 1.1',
            'Book the meeting room',
          ])
          if (size === 'wide') {
            await row(page, editedId).getByRole('button', { name: 'Edit', exact: true }).click()
            await row(page, editedId).locator('.history li').first().waitFor()
          }
          expect(await seriousViolations(page)).toEqual([])
          const overflow = await page.evaluate(
            () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
          )
          expect(overflow).toBe(0)
          const png = await page.screenshot({ fullPage: true })
          expect(png.subarray(1, 4).toString()).toBe('PNG')
          if (OUT !== undefined) {
            mkdirSync(join(ROOT, OUT), { recursive: true })
            writeFileSync(join(ROOT, OUT, `planner-${colorScheme}-${size}.png`), png)
          }
          expect(errors).toEqual([])
        })
  },
)
