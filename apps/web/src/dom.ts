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
  createForm: byId('create-form', HTMLFormElement),
  createName: byId('create-name', HTMLInputElement),
  createTag: byId('create-tag', HTMLInputElement),
  createError: byId('create-error', HTMLParagraphElement),
  tasksHeading: byId('tasks-heading', HTMLHeadingElement),
  filterForm: byId('filter-form', HTMLFormElement),
  filterTag: byId('filter-tag', HTMLInputElement),
  /** The status filter's radio buttons (All, Open, Done), in that order. */
  statuses: [...document.querySelectorAll<HTMLInputElement>('#filter-form input[name="status"]')],
  filterClear: byId('filter-clear', HTMLButtonElement),
  listState: byId('list-state', HTMLParagraphElement),
  connection: byId('connection', HTMLParagraphElement),
  listNotice: byId('list-notice', HTMLParagraphElement),
  list: byId('task-list', HTMLOListElement),
  newest: byId('page-newest', HTMLButtonElement),
  previous: byId('page-previous', HTMLButtonElement),
  next: byId('page-next', HTMLButtonElement),
  pageNumber: byId('page-number', HTMLSpanElement),
  announcer: byId('announcer', HTMLParagraphElement),
}
