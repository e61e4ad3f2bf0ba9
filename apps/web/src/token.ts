/** The API token the user gave, kept for this tab only (sessionStorage), never in the page's URL. */
const KEY = 'tasklane.token'

/** The token given earlier in this tab, if any. */
export function savedToken(): string | undefined {
  return sessionStorage.getItem(KEY) ?? undefined
}

/** Keeps the token for this tab; an empty one forgets it. */
export function saveToken(token: string): void {
  if (token === '') sessionStorage.removeItem(KEY)
  else sessionStorage.setItem(KEY, token)
}
