import { createClient, type NewTask, type Task, type TasklaneClient } from '@tasklane/client'
import { ui } from './dom.js'
import { follow } from './live.js'
import { messageOf, needsToken } from './messages.js'
import { beforeOf, newestPage, nextPage, type Pager, pageNumber, previousPage } from './paging.js'
import { describeList, renderTasks } from './task-list.js'
import { savedToken, saveToken } from './token.js'

/** Tasks a page shows. */
const PAGE_SIZE = 10

/** Same origin: the page is served by the server whose API it calls. */
const clientWith = (token: string | undefined): TasklaneClient =>
  createClient({ baseUrl: location.origin, ...(token === undefined ? {} : { token }) })

let client = clientWith(savedToken())
let tag: string | undefined
let pager: Pager = newestPage()
let shown: Task[] = []
let hasNext = false
/** Tasks the feed brought while a later page was shown. */
let unseen = 0
let feed: AbortController | undefined
/** Loads started: only the latest one's answer is shown. */
let loads = 0

/** Says `text` through the polite live region (new tasks, pages, successes). */
function announce(text: string): void {
  ui.announcer.textContent = text
}

function render(): void {
  renderTasks(ui.list, shown)
  const first = pageNumber(pager) === 1
  ui.newest.disabled = first
  ui.previous.disabled = first
  ui.next.disabled = !hasNext
  ui.pageNumber.textContent = `Page ${pageNumber(pager)}`
  ui.listState.textContent = describeList({ shown: shown.length, tag, unseen, first })
}

/** The server wants a token: ask for it, and stop calling until it is given. */
function askForToken(error: unknown): void {
  feed?.abort()
  ui.tokenSection.hidden = false
  ui.listState.textContent = messageOf(error)
  announce('This server requires an API token: enter it to see the tasks.')
  ui.tokenInput.focus()
}

/** Shows why the list or the feed failed: `what` stopped working, and the reason. */
function failed(error: unknown, what: string): void {
  if (needsToken(error)) {
    askForToken(error)
    return
  }
  ui.listState.textContent = `${what}: ${messageOf(error)}`
  announce(ui.listState.textContent)
}

/** A task the feed or the form brought: shown at the top of page 1 if it matches the filter. */
function arrived(task: Task, how: 'created' | 'new'): void {
  if (tag !== undefined && task.tag !== tag) return
  if (shown.some((t) => t.id === task.id)) return
  if (pageNumber(pager) === 1) {
    shown = [task, ...shown].sort((a, b) => b.id - a.id)
    if (shown.length > PAGE_SIZE) {
      shown = shown.slice(0, PAGE_SIZE)
      hasNext = true
    }
  } else if (how === 'new') {
    unseen += 1
  }
  render()
  if (how === 'new') announce(`New task: ${task.name}`)
}

/** Follows new tasks of the filter from the newest one shown; restarted with the filter or token. */
function startFeed(after: number): void {
  feed?.abort()
  feed = follow(client, {
    after,
    tag,
    onTask: (task) => arrived(task, 'new'),
    onError: (error) => failed(error, 'Live updates stopped'),
  })
}

/**
 * Loads the page `pager` points at; page 1 (re)starts the feed from its newest task.
 * False when it failed (and the failure was shown).
 */
async function load(): Promise<boolean> {
  const mine = ++loads
  try {
    const page = await client.listTasks(PAGE_SIZE + 1, {
      order: 'desc',
      tag,
      before: beforeOf(pager),
    })
    // A later click asked for another page meanwhile: that one is shown.
    if (mine !== loads) return false
    hasNext = page.length > PAGE_SIZE
    shown = page.slice(0, PAGE_SIZE)
    if (pageNumber(pager) === 1) {
      unseen = 0
      startFeed(shown[0]?.id ?? 0)
    }
    render()
    return true
  } catch (error) {
    if (mine === loads) failed(error, 'Could not load the tasks')
    return false
  }
}

/** Paging and filtering move the focus to the list's heading, so that it is read next. */
async function go(to: Pager): Promise<void> {
  pager = to
  if (!(await load())) return
  ui.tasksHeading.focus()
  announce(`Page ${pageNumber(pager)}: ${ui.listState.textContent}`)
}

ui.createForm.addEventListener('submit', async (event) => {
  event.preventDefault()
  ui.createError.textContent = ''
  const name = ui.createName.value
  const newTag = ui.createTag.value
  const task: NewTask = newTag === '' ? { name } : { name, tag: newTag }
  try {
    const created = await client.createTask(task)
    ui.createName.value = ''
    arrived(created, 'created')
    announce(`Created task #${created.id}: ${created.name}`)
  } catch (error) {
    if (needsToken(error)) {
      askForToken(error)
      return
    }
    // The server's own message (role="alert"), which names the field it refuses; both
    // fields point at it (aria-describedby).
    ui.createError.textContent = messageOf(error)
  }
  ui.createName.focus()
})

ui.filterForm.addEventListener('submit', (event) => {
  event.preventDefault()
  tag = ui.filterTag.value === '' ? undefined : ui.filterTag.value
  void go(newestPage())
})

ui.filterClear.addEventListener('click', () => {
  ui.filterTag.value = ''
  tag = undefined
  void go(newestPage())
})

ui.tokenForm.addEventListener('submit', (event) => {
  event.preventDefault()
  saveToken(ui.tokenInput.value)
  client = clientWith(savedToken())
  ui.tokenInput.value = ''
  ui.tokenSection.hidden = true
  void go(newestPage())
})

ui.newest.addEventListener('click', () => void go(newestPage()))
ui.previous.addEventListener('click', () => void go(previousPage(pager)))
ui.next.addEventListener('click', () => {
  const last = shown.at(-1)
  if (last !== undefined) void go(nextPage(pager, last.id))
})

void load().then(() => {
  document.documentElement.dataset.ready = 'true'
})
