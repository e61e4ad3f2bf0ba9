import { createClient, type NewTask, type Task, type TasklaneClient } from '@tasklane/client'
import { ui } from './dom.js'
import { LiveWindows, type Query } from './live-window.js'
import { connectionProblem, messageOf, needsToken } from './messages.js'
import { type Intent, OwnWrites } from './own-writes.js'
import { pageOf, windowLimit } from './page-window.js'
import { beforeOf, newestPage, nextPage, type Pager, pageNumber, previousPage } from './paging.js'
import { type Outcome, send } from './task-actions.js'
import { describeList, TaskList } from './task-list.js'
import { savedToken, saveToken } from './token.js'

/** Same origin: the page is served by the server whose API it calls. */
const clientWith = (token: string | undefined): TasklaneClient =>
  createClient({ baseUrl: location.origin, ...(token === undefined ? {} : { token }) })

let client = clientWith(savedToken())
/** The filters asked for (the window shown may still be the previous filters' one). */
let query: Query = { tag: undefined, status: undefined }
let pager: Pager = newestPage()
/** The tasks the page shows now, newest first. */
let shown: readonly Task[] = []
/** The newest id of the view when page 1 was left: newer ones are counted on later pages. */
let newestSeen = 0
/** The newest id announced (or listed at first): newer ones are announced as new. */
let announcedUpTo = 0
/** Tasks this page created: announced as created, not as new. */
const created = new Set<number>()
const own = new OwnWrites()
/** What happened to a row's last change, shown in the row until its next one. */
const notices = new Map<number, string>()
const windows = new LiveWindows(() => render())
const list = new TaskList(ui.list, { toggle, rename, remove }, ui.tasksHeading)

/** Says `text` through the polite live region (new tasks, pages, outcomes of changes). */
function announce(text: string): void {
  ui.announcer.textContent = text
}

const busyOf = (intent: Intent | undefined) =>
  intent === undefined ? undefined : intent === 'deleting' ? 'deleting' : 'saving'

/** Shows the window's page: its rows, the pager, the list's state; reads a deeper window when needed. */
function render(): void {
  const window = windows.current
  ui.list.setAttribute('aria-busy', String(windows.loading))
  renderConnection()
  const first = pageNumber(pager) === 1
  ui.newest.disabled = ui.previous.disabled = first || windows.loading
  ui.next.disabled = true
  ui.pageNumber.textContent = `Page ${pageNumber(pager)}`
  if (window === undefined) return
  const { live, query: windowQuery, limit } = window
  const { tag, status } = windowQuery
  if (live.closed) {
    shown = []
    list.render([])
    if (windows.loading) ui.listState.textContent = 'Loading tasks…'
    else if (!needsToken(live.error))
      ui.listState.textContent = `Could not load the tasks: ${messageOf(live.error)}`
    else if (ui.tokenSection.hidden) askForToken(live.error)
    return
  }
  const matches = (task: Task) =>
    (tag === undefined || task.tag === tag) && (status === undefined || task.status === status)
  const full = live.tasks.length >= limit
  const page = pageOf(own.apply(live.tasks, matches), {
    before: beforeOf(pager),
    limit,
    full,
    newestSeen,
  })
  shown = page.tasks
  list.render(
    shown.map((task) => ({
      task,
      busy: busyOf(own.inFlight(task.id)),
      notice: notices.get(task.id),
    })),
  )
  announceNew(live.tasks)
  ui.next.disabled = !page.hasNext || windows.loading
  ui.listState.textContent = windows.loading
    ? 'Loading tasks…'
    : describeList({ shown: shown.length, tag, status, unseen: page.unseen, first })
  if (page.grow !== undefined && !windows.loading)
    windows.open(client, windowQuery, page.grow, render)
}

/** Says when the live list is not connected (it reconnects by itself meanwhile). */
function renderConnection(): void {
  const { error } = windows
  const closed = windows.current?.live.closed ?? false
  ui.connection.textContent = error === undefined || closed ? '' : connectionProblem(error)
}

/** Announces the tasks that someone else created since the last look. */
function announceNew(tasks: readonly Task[]): void {
  const fresh = tasks.filter((task) => task.id > announcedUpTo && !created.has(task.id))
  announcedUpTo = Math.max(announcedUpTo, tasks[0]?.id ?? 0)
  const [one] = fresh
  if (fresh.length > 1) announce(`${fresh.length} new tasks.`)
  else if (one !== undefined) announce(`New task: ${one.name}`)
}

/** The server wants a token: ask for it. */
function askForToken(error: unknown): void {
  ui.tokenSection.hidden = false
  ui.listState.textContent = messageOf(error)
  announce('This server requires an API token: enter it to see the tasks.')
  ui.tokenInput.focus()
}

/**
 * Shows the page `to` points at, of the filters asked for. The window shown serves it when
 * it is of the same filters and deep enough; else a new one is read meanwhile (the pager
 * waits). Paging and filtering move the focus to the list's heading, so that it is read next.
 */
function go(to: Pager, { focus = true, filtered = false } = {}): void {
  ui.createError.textContent = ''
  ui.listNotice.textContent = ''
  notices.clear()
  const window = windows.current
  if (pageNumber(pager) === 1 && pageNumber(to) > 1) newestSeen = window?.live.tasks[0]?.id ?? 0
  const arrive = () => {
    if (filtered) announcedUpTo = windows.current?.live.tasks[0]?.id ?? 0
    pager = to
    render()
    document.documentElement.dataset.ready = 'true'
    // A failed listing leaves the focus where it is (in the token's field, when one is asked for).
    if (!focus || windows.current?.live.closed) return
    ui.tasksHeading.focus()
    announce(`Page ${pageNumber(pager)}: ${ui.listState.textContent}`)
  }
  const limit = windowLimit(window?.live.tasks ?? [], beforeOf(to))
  if (!filtered && window !== undefined && !window.live.closed && window.limit >= limit) {
    arrive()
    return
  }
  windows.open(client, query, limit, arrive)
  render()
}

/** Shows how a change the page sent ended, on its row or, for a task gone, above the list. */
function settle(task: Task, outcome: Outcome, saved: string): void {
  own.end(task.id)
  if (outcome.kind === 'saved') {
    if (outcome.task === undefined) own.gone(task.id)
    else own.answered(outcome.task)
    announce(saved)
  } else if (outcome.kind === 'conflict') {
    if (outcome.current !== undefined) own.answered(outcome.current)
    const notice = `Not saved: someone else changed this task first, and it now shows their version. ${outcome.message}`
    notices.set(task.id, notice)
    announce(notice)
  } else if (outcome.kind === 'gone') {
    own.gone(task.id)
    ui.listNotice.textContent = `Task #${task.id} was deleted by someone else. ${outcome.message}`
    announce(ui.listNotice.textContent)
  } else if (outcome.kind === 'failed') {
    notices.set(task.id, `Not saved: ${outcome.message}`)
    announce(`Task #${task.id} not saved: ${outcome.message}`)
  } else {
    askForToken(outcome.error)
  }
  render()
}

/** The checkbox: done or open again, if the task is still at the version shown. */
function toggle(task: Task, done: boolean): void {
  if (own.inFlight(task.id) === undefined) {
    notices.delete(task.id)
    const status = done ? 'done' : 'open'
    own.begin(task.id, { ...task, status })
    void send(client, task, { status }).then((outcome) =>
      settle(task, outcome, `Marked “${task.name}” ${done ? 'done' : 'open again'}.`),
    )
  }
  render()
}

/** Saves a new name; a refusal or no answer stays in the editor, with the name typed. */
async function rename(task: Task, name: string): Promise<string | undefined> {
  notices.delete(task.id)
  const outcome = await send(client, task, { name })
  if (outcome.kind === 'failed') return outcome.message
  settle(task, outcome, `Renamed task #${task.id} to “${name}”.`)
  return undefined
}

function remove(task: Task): void {
  if (own.inFlight(task.id) !== undefined) return
  notices.delete(task.id)
  own.begin(task.id, 'deleting')
  void send(client, task, 'delete').then((outcome) =>
    settle(task, outcome, `Deleted task #${task.id}: ${task.name}`),
  )
  render()
}

ui.createForm.addEventListener('submit', async (event) => {
  event.preventDefault()
  ui.createError.textContent = ''
  const name = ui.createName.value
  const newTag = ui.createTag.value
  const task: NewTask = newTag === '' ? { name } : { name, tag: newTag }
  try {
    const made = await client.createTask(task)
    created.add(made.id)
    ui.createName.value = ''
    announce(`Created task #${made.id}: ${made.name}`)
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

/** Applies the filters as the form shows them. */
function filterFromForm(options: { focus: boolean }): void {
  const status = ui.statuses.find((radio) => radio.checked)?.value
  query = {
    tag: ui.filterTag.value === '' ? undefined : ui.filterTag.value,
    status: status === 'open' || status === 'done' ? status : undefined,
  }
  go(newestPage(), { ...options, filtered: true })
}

ui.filterForm.addEventListener('submit', (event) => {
  event.preventDefault()
  filterFromForm({ focus: true })
})

// A status applies at once; the focus stays on it, so that the arrow keys go on choosing.
for (const radio of ui.statuses)
  radio.addEventListener('change', () => filterFromForm({ focus: false }))

ui.filterClear.addEventListener('click', () => {
  ui.filterForm.reset()
  filterFromForm({ focus: true })
})

ui.tokenForm.addEventListener('submit', (event) => {
  event.preventDefault()
  saveToken(ui.tokenInput.value)
  client = clientWith(savedToken())
  ui.tokenInput.value = ''
  ui.tokenSection.hidden = true
  go(newestPage(), { filtered: true })
})

ui.newest.addEventListener('click', () => go(newestPage()))
ui.previous.addEventListener('click', () => go(previousPage(pager)))
ui.next.addEventListener('click', () => {
  const last = shown.at(-1)
  if (last !== undefined) go(nextPage(pager, last.id))
})

// LiveTasks retries a listing that fails to reach the server without a word: this line says so.
setInterval(renderConnection, 1000)
go(newestPage(), { focus: false, filtered: true })
