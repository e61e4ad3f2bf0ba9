/** The element of index.html with this id, of the expected kind; a missing one is a bug of the page. */
export function byId<T extends HTMLElement>(id: string, kind: new () => T): T {
  const element = document.getElementById(id)
  if (!(element instanceof kind)) throw new Error(`index.html has no ${kind.name} #${id}`)
  return element
}
