import type { Task, TaskSort } from './types.js'

/**
 * How `sort=due` places a due, as the server's sort key does (ms): a moment at its instant
 * (a leap second, `:60`, as the last second of its minute); a day at the last millisecond
 * of that day in UTC, after the moments of its UTC day.
 */
const dueKey = (due: string): number =>
  due.length === 10 ? Date.parse(due) + 86_399_999 : Date.parse(due.replace(':60', ':59'))

/** What a sort compares before the id; `due`: undated (1) after dated (0), then the key. */
const keysOf = (sort: TaskSort | undefined, task: Task): (number | string)[] =>
  sort === 'due'
    ? task.due === undefined
      ? [1, 0]
      : [0, dueKey(task.due)]
    : sort === 'priority'
      ? [task.priority]
      : sort === 'updated'
        ? [Date.parse(task.updatedAt)]
        : sort === 'position'
          ? // Positions are ASCII letters and digits: string order is their byte order.
            [task.listId, task.position]
          : []

/**
 * The order of `GET /tasks?sort=…&order=…` as a comparator: the sort's keys, then the id,
 * each in the order's direction, but undated tasks last both ways under `due`.
 */
export const taskOrder =
  (sort?: TaskSort, order?: 'asc' | 'desc') =>
  (a: Task, b: Task): number => {
    const x = [...keysOf(sort, a), a.id]
    const y = [...keysOf(sort, b), b.id]
    for (const [i, key] of x.entries()) {
      const other = y[i] as number | string
      if (key !== other) {
        const flip = order === 'desc' && !(sort === 'due' && i === 0)
        return key < other !== flip ? -1 : 1
      }
    }
    return 0
  }
