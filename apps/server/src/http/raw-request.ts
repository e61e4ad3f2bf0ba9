/** The path of a request URL, without its query string. */
export function pathOf(url: string): string {
  const query = url.indexOf('?')
  return query === -1 ? url : url.slice(0, query)
}

/**
 * How many header lines named `name` (lower case) a request sent. Node folds repeats
 * into one value or keeps only the first, so the raw lines are counted; no allocation,
 * as it runs on every request.
 */
export function headerLines(rawHeaders: readonly string[], name: string): number {
  let count = 0
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const field = rawHeaders[i] as string
    if (field.length === name.length && field.toLowerCase() === name) count++
  }
  return count
}
