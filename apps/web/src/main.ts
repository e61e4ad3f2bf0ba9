// The page: its parts built once, in the order the page reads them, and wired together.
// Each part's file says what it does; this one only composes them and starts the page.
import { announce } from './announce.js'
import { CreateForm } from './create-form.js'
import { ui } from './dom.js'
import { HelpOverlay } from './help-overlay.js'
import { ListSwitcher } from './list-switcher.js'
import { LiveWindows } from './live-window.js'
import { AccessWatch } from './lost-list.js'
import { READ_ONLY_WORDS } from './messages.js'
import { Navigation } from './navigation.js'
import { OwnWrites } from './own-writes.js'
import { PageApi } from './page-api.js'
import { listenForPageShortcuts } from './page-shortcuts.js'
import { newestPage } from './paging.js'
import { Rights } from './rights-view.js'
import { TaskChanges } from './task-changes.js'
import { TaskList } from './task-list.js'
import { TaskMoves } from './task-moves.js'
import { TaskSearch } from './task-search.js'
import { TaskView } from './task-view.js'
import { listenForToken } from './token-form.js'
import { ViewFilters } from './view-filters.js'
import { ViewState } from './view-state.js'

const api = new PageApi()
const state = new ViewState()
const own = new OwnWrites()
const rights = new Rights()
// The parts call one another back: each callback names a part built further down, and is
// only called once the page has started.
const windows = new LiveWindows(() => {
  view.render()
  access.windowChanged(windows.current)
})
const list: TaskList = new TaskList(
  ui.list,
  {
    toggle: (task, done) => changes.toggle(task, done),
    edit: (task, patch) => changes.edit(task, patch),
    remove: (task) => changes.remove(task),
    filterByTag: (tag) => filters.filterByTag(tag),
    drop: (task, place) => moves.move(task, place),
    readOnly: () => announce(READ_ONLY_WORDS),
  },
  ui.tasksHeading,
  api.planning,
)
const lists = new ListSwitcher(ui.listSwitcher, ui.listsState, (chosen) =>
  filters.chooseList(chosen),
)
const help = new HelpOverlay(ui.help, ui.helpClose)
const search = new TaskSearch(api.planning, (error) => view.searched(error))
const view: TaskView = new TaskView({ api, state, windows, list, search, own, rights })
const access: AccessWatch = new AccessWatch({
  client: () => api.client,
  rights,
  lists,
  chosen: () => state.query.list,
  choose: (chosen) => {
    lists.select(chosen)
    filters.chooseList(chosen, false)
  },
  render: () => view.render(),
})
const refused = () => access.refused()
const changes: TaskChanges = new TaskChanges({ api, state, own, view, refused })
const moves = new TaskMoves({ api, state, own, windows, list, view, changes })
const createForm = new CreateForm(api, state, lists, refused)
const navigation = new Navigation({
  api,
  state,
  windows,
  view,
  search,
  lists,
  rights,
  arrived: () => access.windowChanged(windows.current),
  clearCreateMessages: () => createForm.clearMessages(),
})
const filters = new ViewFilters(state, navigation)

listenForToken(api, () => {
  lists.forget()
  rights.forget()
  navigation.go(newestPage(), { filtered: true })
})
listenForPageShortcuts({ list, changes, moves, help, planning: api.planning })
navigation.listenForPager()

// LiveTasks retries a listing that fails to reach the server without a word: this line says so.
setInterval(() => view.renderConnection(), 1000)
// A due in words ("tomorrow", "3 days overdue") changes with the clock: said again each minute.
setInterval(() => view.render(), 60_000)
navigation.go(newestPage(), { focus: false, filtered: true })
