/** The element of index.html with this id, of the expected kind; a missing one is a bug of the page. */
function byId<T extends HTMLElement>(id: string, kind: new () => T): T {
  const element = document.getElementById(id)
  if (!(element instanceof kind)) throw new Error(`index.html has no ${kind.name} #${id}`)
  return element
}

/** The elements of index.html that the page drives. */
export const ui = {
  tokenSection: byId('token-section', HTMLElement),
  tokenForm: byId('token-form', HTMLFormElement),
  tokenInput: byId('token-input', HTMLInputElement),
  /** The create form's section: hidden where the caller may not create. */
  createSection: byId('create-section', HTMLElement),
  createForm: byId('create-form', HTMLFormElement),
  createName: byId('create-name', HTMLInputElement),
  createTag: byId('create-tag', HTMLInputElement),
  createNameError: byId('create-name-error', HTMLParagraphElement),
  createTagError: byId('create-tag-error', HTMLParagraphElement),
  /** The create form's message that is no field's: the server unreachable, say. */
  createError: byId('create-error', HTMLParagraphElement),
  tasksHeading: byId('tasks-heading', HTMLHeadingElement),
  filterForm: byId('filter-form', HTMLFormElement),
  filterTag: byId('filter-tag', HTMLInputElement),
  /** The status filter's radio buttons (All, Open, Done), in that order. */
  statuses: [...document.querySelectorAll<HTMLInputElement>('#filter-form input[name="status"]')],
  filterClear: byId('filter-clear', HTMLButtonElement),
  order: byId('order-select', HTMLSelectElement),
  searchForm: byId('search-form', HTMLFormElement),
  searchInput: byId('search-input', HTMLInputElement),
  listSwitcher: byId('list-switcher', HTMLUListElement),
  listsState: byId('lists-state', HTMLParagraphElement),
  helpOpen: byId('help-open', HTMLButtonElement),
  help: byId('help', HTMLDialogElement),
  helpClose: byId('help-close', HTMLButtonElement),
  listState: byId('list-state', HTMLParagraphElement),
  connection: byId('connection', HTMLParagraphElement),
  listNotice: byId('list-notice', HTMLParagraphElement),
  /** Why the page shows no controls to change tasks, when the caller may only read them. */
  accessNote: byId('access-note', HTMLParagraphElement),
  list: byId('task-list', HTMLOListElement),
  newest: byId('page-newest', HTMLButtonElement),
  previous: byId('page-previous', HTMLButtonElement),
  next: byId('page-next', HTMLButtonElement),
  pageRange: byId('page-range', HTMLSpanElement),
  undo: byId('undo', HTMLDivElement),
  undoText: byId('undo-text', HTMLParagraphElement),
  undoButton: byId('undo-button', HTMLButtonElement),
  announcer: byId('announcer', HTMLParagraphElement),
}
