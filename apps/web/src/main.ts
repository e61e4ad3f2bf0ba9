import {
  createClient,
  isApiError,
  type NewTask,
  type Task,
  type TasklaneClient,
  type TaskPatch,
} from '@tasklane/client'
import { ui } from './dom.js'
import { describeEdit } from './edit-words.js'
import { FieldError } from './field-error.js'
import { HelpOverlay } from './help-overlay.js'
import { ListSwitcher } from './list-switcher.js'
import { LiveWindows, type Query, type Window } from './live-window.js'
import { byPosition, keyboardMove, standing } from './manual-order.js'
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
import { type Place, PlanningApi } from './planning-api.js'
import { listenForShortcuts } from './shortcuts.js'
import { type Outcome, send, sendMove } from './task-actions.js'
import { describeList, describeRange, TaskList } from './task-list.js'
import { TaskSearch } from './task-search.js'
import { savedToken, saveToken } from './token.js'
import { UndoNotice } from './undo-notice.js'

/** Same origin: the page is served by the server whose API it calls. */
const clientWith = (token: string | undefined): TasklaneClient =>
  createClient({ baseUrl: location.origin, ...(token === undefined ? {} : { token }) })

let client = clientWith(savedToken())
const planning = new PlanningApi(savedToken)
/** The filters asked for (the window shown may still be the previous filters' one). */
let query: Query = {
  list: undefined,
  tag: undefined,
  status: undefined,
  order: 'newest',
  q: undefined,
}
/** Tasks whose move is being sent. */
const moving = new Set<number>()
/** The lists were read with the credential in use (only once a listing succeeded: no 401 twice). */
let listsRead = false
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
const list = new TaskList(
  ui.list,
  { toggle, edit, remove, filterByTag, drop: (task, place) => move(task, place) },
  ui.tasksHeading,
  planning,
)
const lists = new ListSwitcher(ui.listSwitcher, ui.listsState, (chosen) => {
  query = { ...query, list: chosen }
  go(newestPage(), { filtered: true })
})
const help = new HelpOverlay(ui.help, ui.helpClose)
const search = new TaskSearch(planning, (error) => {
  render()
  if (error === undefined) announce(ui.listState.textContent ?? '')
  else if (needsToken(error)) askForToken(error)
  else ui.listNotice.textContent = `Could not search: ${messageOf(error)}`
})
const undo = new UndoNotice(ui.undo, ui.undoText, ui.undoButton, restore, ui.tasksHeading, announce)
/** The create form's fields, each with its message beside it. */
const createFields: Partial<Record<TextField, FieldError>> = {
  name: new FieldError(ui.createName, ui.createNameError),
  tag: new FieldError(ui.createTag, ui.createTagError),
}

/** Says `text` through the polite live region (new tasks, pages, outcomes of changes). */
function announce(text: string): void {
  ui.announcer.textContent = text
}

const busyOf = (id: number, intent: Intent | undefined) =>
  intent === undefined
    ? undefined
    : intent === 'deleting'
      ? 'deleting'
      : moving.has(id)
        ? 'moving'
        : 'saving'

/** The list's heading says its order: newest first, the manual order, or a search. */
function headingOf({ order, q }: Query): string {
  if (q !== undefined) return 'Tasks found'
  return order === 'manual' ? 'Tasks, in my order' : 'Tasks, newest first'
}

/** Shows the window's page: its rows, the pager, the list's state; reads a deeper window when needed. */
function render(): void {
  const window = windows.current
  ui.list.setAttribute('aria-busy', String(windows.loading))
  renderConnection()
  const first = pageNumber(pager) === 1
  ui.newest.disabled = ui.previous.disabled = first || windows.loading
  ui.next.disabled = true
  if (window === undefined) return
  // A whole view (the manual order, a search) has no pages.
  for (const button of [ui.newest, ui.previous, ui.next]) button.hidden = window.limit === undefined
  const { live, query: windowQuery, limit } = window
  const { tag, status, list: listId } = windowQuery
  ui.tasksHeading.textContent = headingOf(windowQuery)
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
    (tag === undefined || task.tag === tag) &&
    (status === undefined || task.status === status) &&
    (listId === undefined || task.listId === listId)
  if (limit === undefined) {
    renderWhole(window, matches)
    return
  }
  const full = live.tasks.length >= limit
  const page = pageOf(own.apply(live.tasks, matches), {
    before: beforeOf(pager),
    limit,
    full,
    newestSeen,
  })
  shown = page.tasks
  renderRows(false)
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

/** The rows of the tasks shown. */
function renderRows(reorderable: boolean): void {
  list.render(
    shown.map((task) => ({
      task,
      busy: busyOf(task.id, own.inFlight(task.id)),
      notice: notices.get(task.id),
      reorderable,
    })),
  )
}

/** A whole view (the manual order, a search): every task of it, no pages. */
function renderWhole({ live, query: windowQuery }: Window, matches: (task: Task) => boolean): void {
  const { tag, status, q, order } = windowQuery
  const tasks = own.apply(live.tasks, matches)
  shown = q === undefined ? tasks.sort(byPosition) : search.ordered(tasks, windowQuery)
  renderRows(order === 'manual' && q === undefined)
  announceNew(live.tasks)
  ui.pageRange.textContent = describeRange({ offset: 0, shown: shown.length, hasNext: false })
  const searching = search.pending(windowQuery)
  ui.listState.textContent =
    windows.loading || searching
      ? searching
        ? 'Searching…'
        : 'Loading tasks…'
      : describeList({ shown: shown.length, tag, status, unseen: 0, first: true, q })
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
  announcedUpTo = Math.max(announcedUpTo, newestOf(tasks))
  const [one] = fresh
  if (fresh.length > 1) announce(`${fresh.length} new tasks.`)
  else if (one !== undefined) announce(`New task: ${one.name}`)
}

/** The highest id among `tasks` (0 for none): the newest. */
const newestOf = (tasks: readonly Task[]) => tasks.reduce((max, task) => Math.max(max, task.id), 0)

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
    if (filtered) announcedUpTo = newestOf(windows.current?.live.tasks ?? [])
    pager = to
    render()
    if (!listsRead && windows.current?.live.closed === false) {
      listsRead = true
      void lists.load(client)
    }
    document.documentElement.dataset.ready = 'true'
    // A failed listing leaves the focus where it is (in the token's field, when one is asked for).
    if (!focus || windows.current?.live.closed) return
    ui.tasksHeading.focus()
    const range = ui.pageRange.textContent
    announce(range === '' ? `${ui.listState.textContent}` : `${range}. ${ui.listState.textContent}`)
  }
  // The manual order and a search show the whole view, in their order: no pages.
  const whole = query.order === 'manual' || query.q !== undefined
  const limit = whole ? undefined : windowLimit(window?.live.tasks ?? [], beforeOf(to))
  // New words or filters: the search (if any) asked again, of the view as it is now asked.
  if (filtered) search.run(query)
  const deepEnough =
    limit === undefined ? window?.limit === undefined : (window?.limit ?? 0) >= limit
  if (!filtered && window !== undefined && !window.live.closed && deepEnough) {
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

/**
 * Saves a new name, tag, notes, due or priority (emptied: removed); a refusal or no answer stays in the
 * editor, with what was typed, the refusal in words beside its field.
 */
async function edit(task: Task, patch: TaskPatch): Promise<Refusal | undefined> {
  notices.delete(task.id)
  const outcome = await send(client, task, patch)
  if (outcome.kind === 'failed') {
    if (outcome.status !== 400) return { field: undefined, text: outcome.message }
    return refusalOf(outcome.message, {
      name: patch.name,
      tag: patch.tag ?? undefined,
      notes: patch.notes ?? undefined,
    })
  }
  settle(task, outcome, () => announce(describeEdit(task, patch)))
  return undefined
}

/**
 * Moves `task` in its list's manual order (Alt+↑/↓, drag and drop), if it is still at the
 * version shown; says where it went through the live region once the server has answered.
 */
function move(task: Task, place: Place): void {
  if (own.inFlight(task.id) !== undefined || !reorderable()) return
  notices.delete(task.id)
  moving.add(task.id)
  own.begin(task.id, task)
  void sendMove(client, planning, task, place).then((outcome) => {
    moving.delete(task.id)
    settle(task, outcome, () => {
      render()
      const beside = shown.find((t) => t.id === ('before' in place ? place.before : place.after))
      const where = `${'before' in place ? 'before' : 'after'} “${beside?.name ?? 'the task'}”`
      announce(`Moved “${task.name}” ${where}: ${standing(shown, task)} in its list.`)
    })
  })
  render()
}

/** The list shown is in the manual order, unsearched; else says how to get there. */
function reorderable(): boolean {
  const view = windows.current?.query
  if (view?.order === 'manual' && view.q === undefined) return true
  announce('Choose “My order” (and no search) to move tasks.')
  return false
}

/** Alt+↑/↓ on a task: it trades places with the task shown above or below it. */
function moveFocused(direction: 'up' | 'down'): void {
  const task = list.focusedTask
  if (task === undefined || !reorderable()) return
  const step = keyboardMove(shown, task, direction)
  if (step.kind === 'edge')
    announce(`“${task.name}” is already ${direction === 'up' ? 'first' : 'last'} in its list.`)
  else move(task, step.place)
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
    listId: task.listId,
    priority: task.priority,
    ...(task.tag === undefined ? {} : { tag: task.tag }),
    ...(task.notes === undefined ? {} : { notes: task.notes }),
    ...(task.due === undefined ? {} : { due: task.due }),
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
  for (const field of Object.values(createFields)) field?.clear()
}

ui.createForm.addEventListener('submit', async (event) => {
  event.preventDefault()
  clearCreateMessages()
  const name = ui.createName.value
  const newTag = ui.createTag.value
  const listId = lists.chosen
  const task: NewTask = {
    name,
    ...(newTag === '' ? {} : { tag: newTag }),
    ...(listId === undefined ? {} : { listId }),
  }
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
    const beside = refusal.field === undefined ? undefined : createFields[refusal.field]
    if (beside === undefined) ui.createError.textContent = refusal.text
    else {
      beside.show(refusal.text)
      beside.input.focus()
      return
    }
  }
  ui.createName.focus()
})

/** Applies the filters as the form shows them. */
function filterFromForm(options: { focus: boolean }): void {
  const status = ui.statuses.find((radio) => radio.checked)?.value
  query = {
    ...query,
    tag: ui.filterTag.value === '' ? undefined : ui.filterTag.value,
    status: status === 'open' || status === 'done' ? status : undefined,
    order: ui.order.value === 'manual' ? 'manual' : 'newest',
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

ui.order.addEventListener('change', () => filterFromForm({ focus: false }))

ui.filterClear.addEventListener('click', () => {
  ui.filterForm.reset()
  ui.searchInput.value = ''
  query = { ...query, q: undefined }
  filterFromForm({ focus: true })
})

/** The search box's words: the tasks found show, in the server's order; none, the whole view. */
function searchFor(words: string): void {
  const q = words.trim() === '' ? undefined : words.trim()
  if (q === query.q) return
  query = { ...query, q }
  go(newestPage(), { filtered: true })
}

ui.searchForm.addEventListener('submit', (event) => {
  event.preventDefault()
  searchFor(ui.searchInput.value)
})
// Emptied (Escape in the box, or its clear button): the whole view again.
ui.searchInput.addEventListener('input', () => {
  if (ui.searchInput.value === '' && query.q !== undefined) searchFor('')
})

ui.tokenForm.addEventListener('submit', (event) => {
  event.preventDefault()
  saveToken(ui.tokenInput.value)
  client = clientWith(savedToken())
  ui.tokenInput.value = ''
  ui.tokenSection.hidden = true
  listsRead = false
  go(newestPage(), { filtered: true })
})

ui.helpOpen.addEventListener('click', () => help.open())
listenForShortcuts(
  {
    step: (step) => list.focusRow(step),
    toggle: () => {
      const task = list.focusedTask
      if (task !== undefined) toggle(task, task.status !== 'done')
    },
    edit: () => list.focusedRow?.edit(edit, planning),
    move: moveFocused,
    help: () => help.open(),
  },
  ui.help,
)

ui.newest.addEventListener('click', () => go(newestPage()))
ui.previous.addEventListener('click', () => go(previousPage(pager)))
ui.next.addEventListener('click', () => {
  const last = shown.at(-1)
  if (last !== undefined) go(nextPage(pager, last.id))
})

// LiveTasks retries a listing that fails to reach the server without a word: this line says so.
setInterval(renderConnection, 1000)
// A due in words ("tomorrow", "3 days overdue") changes with the clock: said again each minute.
setInterval(render, 60_000)
go(newestPage(), { focus: false, filtered: true })
