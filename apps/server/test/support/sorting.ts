// What GET /tasks' sorts mean, written again from docs/api.md for the tests to compare the
// server's answers with, and a walk through a listing's pages by their Links.
import type { Task } from '@tasklane/contract'
import { expect } from 'vitest'
import type { Caller } from './access.js'

/** The sorts besides id. */
export const KEYED_SORTS = ['due', 'priority', 'position', 'updated'] as const
export type KeyedSort = (typeof KEYED_SORTS)[number]
export type Order = 'asc' | 'desc'

/**
 * Where a due puts a task in sort=due: a moment at its instant, a day at the last
 * millisecond of that day in UTC; undated: undefined.
 */
export function dueSortKey(task: Task): number | undefined {
  if (task.due === undefined) return undefined
  return task.due.length === 10 ? Date.parse(`${task.due}T23:59:59.999Z`) : Date.parse(task.due)
}

const compareNumbers = (a: number, b: number) => (a < b ? -1 : a > b ? 1 : 0)
const compareBytes = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b))

/** How `sort` compares two tasks in ascending order, the id last. */
function ascending(sort: KeyedSort | 'id', a: Task, b: Task): number {
  switch (sort) {
    case 'priority':
      return compareNumbers(a.priority, b.priority) || compareNumbers(a.id, b.id)
    case 'updated':
      return (
        compareNumbers(Date.parse(a.updatedAt), Date.parse(b.updatedAt)) ||
        compareNumbers(a.id, b.id)
      )
    case 'position':
      return (
        compareNumbers(a.listId, b.listId) ||
        compareBytes(a.position, b.position) ||
        compareNumbers(a.id, b.id)
      )
    case 'due': {
      const [x, y] = [dueSortKey(a), dueSortKey(b)]
      if (x === undefined || y === undefined) return compareNumbers(a.id, b.id)
      return compareNumbers(x, y) || compareNumbers(a.id, b.id)
    }
    case 'id':
      return compareNumbers(a.id, b.id)
  }
}

/** `tasks` in the order `sort` and `order` give them (undated last both ways in `due`). */
export function sortedAs(tasks: readonly Task[], sort: KeyedSort | 'id', order: Order): Task[] {
  const sign = order === 'desc' ? -1 : 1
  const dated = sort === 'due' ? tasks.filter((task) => task.due !== undefined) : [...tasks]
  const undated = sort === 'due' ? tasks.filter((task) => task.due === undefined) : []
  const by = (a: Task, b: Task) => sign * ascending(sort, a, b)
  return [...dated.sort(by), ...undated.sort(by)]
}

/** The path of a `rel="next"` Link, or null when there is none. */
export function nextPath(link: unknown): string | null {
  if (link === undefined || link === null) return null
  const match = /^<([^>]+)>; rel="next"$/.exec(String(link))
  expect(match).not.toBeNull()
  return match?.[1] ?? null
}

/** A listing's tasks, asserting its 200. */
export async function listed(
  caller: Caller,
  path: string,
): Promise<{ tasks: Task[]; link: string | null }> {
  const response = await caller.get(path)
  expect({ status: response.statusCode, path }).toEqual({ status: 200, path })
  return { tasks: response.json() as Task[], link: nextPath(response.headers.link) }
}

/** Every page from `path` on, following `rel="next"` Links. */
export async function pagesFrom(caller: Caller, path: string): Promise<Task[][]> {
  const pages: Task[][] = []
  let next: string | null = path
  while (next !== null) {
    const { tasks, link } = await listed(caller, next)
    pages.push(tasks)
    next = link
    if (pages.length > 500) throw new Error('too many pages')
  }
  return pages
}

export const idsOf = (tasks: readonly Task[]) => tasks.map((task) => task.id)
