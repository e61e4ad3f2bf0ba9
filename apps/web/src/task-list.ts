import type { Task } from '@tasklane/client'

/** One task as a list item: its name, its tag if any, and its id. Text only, never HTML. */
function item(task: Task): HTMLLIElement {
  const li = document.createElement('li')
  li.dataset.id = String(task.id)
  const name = document.createElement('span')
  name.className = 'name'
  name.textContent = task.name
  li.append(name)
  if (task.tag !== undefined) {
    const tag = document.createElement('span')
    tag.className = 'tag'
    tag.textContent = task.tag
    li.append(' ', tag)
  }
  const id = document.createElement('span')
  id.className = 'id'
  id.textContent = `#${task.id}`
  li.append(' ', id)
  return li
}

/** Shows these tasks in the list, in this order. */
export function renderTasks(list: HTMLOListElement, tasks: readonly Task[]): void {
  list.replaceChildren(...tasks.map(item))
}

/** What the list shows, in words: its count, the filter, or the new tasks waiting on page 1. */
export function describeList({
  shown,
  tag,
  unseen,
  first,
}: {
  shown: number
  tag: string | undefined
  unseen: number
  first: boolean
}): string {
  const filter = tag === undefined ? '' : ` tagged “${tag}”`
  if (shown === 0) return `No tasks${filter} yet.`
  if (unseen > 0 && !first)
    return `${unseen} new ${unseen === 1 ? 'task' : 'tasks'}${filter}: see Newest.`
  return `Showing ${shown} ${shown === 1 ? 'task' : 'tasks'}${filter}.`
}
