import {
  createClient,
  isApiError,
  type NewTask,
  type Task,
  type TasklaneClient,
  type TaskPatch,
} from '@tasklane/client'
import { ui } from './dom.js'
import { FieldError } from './field-error.js'
import { LiveWindows, type Query } from './live-window.js'
import {
  connectionProblem,
  messageOf,
  needsToken,
  type Refusal,
  refusalOf,
  type TextField,
} from './messages.js'
import { type Intent, OwnWrites } from './own-writes.js'
import { pageOf, windowLimit } from './page-window.js'
import { beforeOf, newestPage, nextPage, type Pager, pageNumber, previousPage } from './paging.js'
import { type Outcome, send } from './task-actions.js'
import { describeList, describeRange, TaskList } from './task-list.js'
import { savedToken, saveToken } from './token.js'
import { UndoNotice } from './undo-notice.js'

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
const list = new TaskList(ui.list, { toggle, edit, remove, filterByTag }, ui.tasksHeading)
const undo = new UndoNotice(ui.undo, ui.undoText, ui.undoButton, restore, ui.tasksHeading, announce)
/** The create form's fields, each with its message beside it. */
const createFields: Record<TextField, FieldError> = {
  name: new FieldError(ui.createName, ui.createNameError),
  tag: new FieldError(ui.createTag, ui.createTagError),
}

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
  if (window === undefined) return
  const { live, query: windowQuery, limit } = window
  const { tag, status } = windowQuery
  if (live.closed) {
    shown = []
    ui.pageRange.textContent = ''
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
  ui.pageRange.textContent = describeRange({
    offset: page.offset,
    shown: shown.length,
    hasNext: page.hasNext,
  })
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
  clearCreateMessages()
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
    const range = ui.pageRange.textContent
    announce(range === '' ? `${ui.listState.textContent}` : `${range}. ${ui.listState.textContent}`)
  }
  const limit = windowLimit(window?.live.tasks ?? [], beforeOf(to))
  if (!filtered && window !== undefined && !window.live.closed && window.limit >= limit) {
    arrive()
    return
  }
  windows.open(client, query, limit, arrive)
  render()
}

/**
 * Shows how a change the page sent ended, on its row or, for a task gone, above the list;
 * `saved` is said when it succeeded.
 */
function settle(task: Task, outcome: Outcome, saved: () => void): void {
  own.end(task.id)
  if (outcome.kind === 'saved') {
    if (outcome.task === undefined) own.gone(task.id)
    else own.answered(outcome.task)
    saved()
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
      settle(task, outcome, () =>
        announce(`Marked “${task.name}” ${done ? 'done' : 'open again'}.`),
      ),
    )
  }
  render()
}

/** What an edit did, in words: `Renamed task #7 to “Ship it”. Removed its tag.` */
function describeEdit(task: Task, patch: TaskPatch): string {
  const said = []
  if (patch.name !== undefined) said.push(`Renamed task #${task.id} to “${patch.name}”.`)
  if (patch.tag === null) said.push(`Removed the tag of task #${task.id}.`)
  else if (patch.tag !== undefined) said.push(`Tagged task #${task.id} “${patch.tag}”.`)
  return said.join(' ')
}

/**
 * Saves a new name or tag (an emptied tag is removed); a refusal or no answer stays in the
 * editor, with what was typed, the refusal in words beside its field.
 */
async function edit(task: Task, patch: TaskPatch): Promise<Refusal | undefined> {
  notices.delete(task.id)
  const outcome = await send(client, task, patch)
  if (outcome.kind === 'failed') {
    if (outcome.status !== 400) return { field: undefined, text: outcome.message }
    return refusalOf(outcome.message, { name: patch.name, tag: patch.tag ?? undefined })
  }
  settle(task, outcome, () => announce(describeEdit(task, patch)))
  return undefined
}

function remove(task: Task): void {
  if (own.inFlight(task.id) !== undefined) return
  notices.delete(task.id)
  own.begin(task.id, 'deleting')
  void send(client, task, 'delete').then((outcome) =>
    settle(task, outcome, () => undo.deleted(task)),
  )
  render()
}

/**
 * Undo of a delete: the task again, as a new one (the API has no undelete: a deleted id is
 * never used again), with its name, tag and status.
 */
async function restore(task: Task): Promise<string> {
  const again: NewTask = {
    name: task.name,
    ...(task.tag === undefined ? {} : { tag: task.tag }),
    ...(task.status === 'done' ? { status: 'done' as const } : {}),
  }
  try {
    const made = await client.createTask(again)
    created.add(made.id)
    return `Restored “${made.name}” as task #${made.id}.`
  } catch (error) {
    if (needsToken(error)) askForToken(error)
    throw new Error(`Could not bring “${task.name}” back: ${messageOf(error)}`)
  }
}

/** A row's tag: the list shows that tag's tasks, as the filter would. */
function filterByTag(tag: string): void {
  ui.filterTag.value = tag
  filterFromForm({ focus: true })
}

/** Clears what the create form said of the last task sent. */
function clearCreateMessages(): void {
  ui.createError.textContent = ''
  for (const field of Object.values(createFields)) field.clear()
}

ui.createForm.addEventListener('submit', async (event) => {
  event.preventDefault()
  clearCreateMessages()
  const name = ui.createName.value
  const newTag = ui.createTag.value
  const task: NewTask = newTag === '' ? { name } : { name, tag: newTag }
  try {
    const made = await client.createTask(task)
    created.add(made.id)
    // Ready for the next task: a tag left in its field would go with it unseen.
    ui.createName.value = ''
    ui.createTag.value = ''
    announce(`Created task #${made.id}: ${made.name}`)
  } catch (error) {
    if (needsToken(error)) {
      askForToken(error)
      return
    }
    // A refusal of what was typed is said in words beside its field (role="alert", and
    // the field's description); the server's own words when they are not known.
    const refusal =
      isApiError(error) && error.status === 400
        ? refusalOf(error.message, { name, tag: newTag })
        : { field: undefined, text: messageOf(error) }
    if (refusal.field === undefined) ui.createError.textContent = refusal.text
    else {
      createFields[refusal.field].show(refusal.text)
      createFields[refusal.field].input.focus()
      return
    }
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
