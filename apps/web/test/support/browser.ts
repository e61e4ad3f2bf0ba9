import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { CHROMIUM_LAUNCH, checkChromium } from '@tasklane/testing/chromium'
import { type Browser, type BrowserContextOptions, chromium, type Page } from 'playwright-core'

/** Without Chromium: skipped with one loud line, or a failure under TASKLANE_REQUIRE_ALL=1. */
export const hasChromium = checkChromium()

/** Starts Chromium headless, as the client's browser test does. */
export const launchChromium = (): Promise<Browser> => chromium.launch(CHROMIUM_LAUNCH)

/** A tab on the page, and every console error and uncaught exception it had. */
export interface OpenPage {
  readonly page: Page
  readonly errors: string[]
}

/** How a tab is opened: its context's options (time zone, color scheme, size), and a clock. */
export interface PageOptions {
  readonly context?: BrowserContextOptions
  /** The page's Date stands at this instant (timers still run): due dates said in words. */
  readonly fixedTime?: Date
}

/** Opens the page at `url` in a tab of its own (its own sessionStorage) once it has loaded its tasks. */
export async function openPage(
  browser: Browser,
  url: string,
  options: PageOptions = {},
): Promise<OpenPage> {
  const context = await browser.newContext(options.context)
  const page = await context.newPage()
  if (options.fixedTime !== undefined) await page.clock.setFixedTime(options.fixedTime)
  const errors: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`)
  })
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`))
  await page.goto(`${url}/`)
  await page.waitForFunction(() => document.documentElement.dataset.ready === 'true')
  return { page, errors }
}

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

/** axe-core's violations of impact serious or critical on the page as it is now. */
export async function seriousViolations(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol: the page's CSP rightly refuses injected scripts.
  await page.evaluate(AXE)
  const results = await page.evaluate(() =>
    (window as unknown as { axe: { run(): Promise<AxeResults> } }).axe.run(),
  )
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target).join(', ')}`)
}

interface AxeResults {
  violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[]
}
