import type { Task } from '@tasklane/client'
import type { Locator, Page } from 'playwright-core'
import { expect } from 'vitest'

/** The server's API over plain fetch, as another user of the server (or a script) calls it. */
export class Api {
  constructor(readonly url: string) {}

  /** Creates a task: 201. */
  async create(task: {
    name: string
    tag?: string
    status?: 'open' | 'done'
    notes?: string
    due?: string
    priority?: number
    listId?: number
  }): Promise<Task> {
    const response = await fetch(`${this.url}/task`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(task),
    })
    expect(response.status).toBe(201)
    return (await response.json()) as Task
  }

  /** The task as the server holds it, or undefined once it is deleted (404). */
  async get(id: number): Promise<Task | undefined> {
    const response = await fetch(`${this.url}/tasks/${id}`)
    if (response.status === 404) return undefined
    expect(response.status).toBe(200)
    return (await response.json()) as Task
  }

  /** Changes a task (a merge patch): 200. */
  async patch(id: number, patch: Record<string, unknown>): Promise<Task> {
    const response = await fetch(`${this.url}/tasks/${id}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/merge-patch+json' },
      body: JSON.stringify(patch),
    })
    expect(response.status).toBe(200)
    return (await response.json()) as Task
  }

  /** The names of a listing, as the server answers it now (e.g. `order=desc&tag=x&limit=10`). */
  async names(query: string): Promise<string[]> {
    const response = await fetch(`${this.url}/tasks?${query}`)
    expect(response.status).toBe(200)
    return ((await response.json()) as Task[]).map((task) => task.name)
  }
}

/** Applies the tag filter from the form (the focus then goes to the list's heading). */
export async function filterBy(page: Page, tag: string): Promise<void> {
  await page.getByLabel('Filter by tag').fill(tag)
  await page.getByRole('button', { name: 'Filter', exact: true }).click()
  await page.waitForFunction(
    (wanted) => document.querySelector('#list-state')?.textContent?.includes(`“${wanted}”`),
    tag,
  )
}

/** The names the list shows, top to bottom. */
export const shownNames = (page: Page): Promise<(string | null)[]> =>
  page.$$eval('#task-list .name', (names) => names.map((name) => name.textContent))

/** Waits until the list shows exactly these names, top to bottom. */
export const waitForNames = (page: Page, names: readonly string[]) =>
  page.waitForFunction(
    (wanted) =>
      JSON.stringify(
        [...document.querySelectorAll('#task-list .name')].map((e) => e.textContent),
      ) === JSON.stringify(wanted),
    names,
    { timeout: 15_000 },
  )

/** Waits until the list shows a task of this name. */
export const waitForTask = (page: Page, name: string, timeout = 15_000) =>
  page.waitForFunction(
    (wanted) =>
      [...document.querySelectorAll('#task-list .name')].some((e) => e.textContent === wanted),
    name,
    { timeout },
  )

/** Waits until the element matching `selector` has exactly this text. */
export const waitForText = (page: Page, selector: string, text: string, timeout = 15_000) =>
  page.waitForFunction(
    ([css, wanted]) => document.querySelector(css as string)?.textContent === wanted,
    [selector, text],
    { timeout },
  )

/** The row of the task with this id. */
export const row = (page: Page, id: number): Locator =>
  page.locator(`#task-list li[data-id="${id}"]`)

/**
 * What has the focus: a row's control by what it does (toggle, rename, delete), else its id,
 * else its text; and the id of the row it is in.
 */
export const focused = (page: Page) =>
  page.evaluate(() => {
    const e = document.activeElement as HTMLElement
    return {
      what: e.dataset.action || e.id || e.textContent?.trim() || e.tagName,
      row: e.closest('li')?.dataset.id,
    }
  })

/** Waits until the server holds task `id` as `check` says (the page's change was sent). */
export async function serverHolds(
  api: Api,
  id: number,
  check: (task: Task | undefined) => boolean,
): Promise<Task | undefined> {
  await expect.poll(async () => check(await api.get(id)), { timeout: 15_000 }).toBe(true)
  return api.get(id)
}
