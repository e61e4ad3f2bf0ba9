/**
 * Where the user is in the list, newest first: the `before` cursor of every page visited,
 * the first (undefined) being the newest tasks. Next pushes the id of the last task shown
 * (keyset paging, as the server's Link header does); previous pops.
 */
export interface Pager {
  readonly befores: readonly (number | undefined)[]
}

/** The newest tasks: page 1. */
export const newestPage = (): Pager => ({ befores: [undefined] })

/** The `before` of the page shown (undefined on page 1). */
export const beforeOf = (pager: Pager): number | undefined => pager.befores.at(-1)

/** The page after this one, which starts below the last task shown. */
export const nextPage = (pager: Pager, lastShownId: number): Pager => ({
  befores: [...pager.befores, lastShownId],
})

/** The page before this one (page 1 stays page 1). */
export const previousPage = (pager: Pager): Pager =>
  pager.befores.length > 1 ? { befores: pager.befores.slice(0, -1) } : pager

/** 1 for the newest tasks, 2 for the page after, … */
export const pageNumber = (pager: Pager): number => pager.befores.length
