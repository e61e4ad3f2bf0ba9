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
