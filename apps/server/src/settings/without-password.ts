/**
 * A URL with its password masked: in the user info (`postgres://user:pw@…`, also with no
 * user, as `redis://:pw@…`) and in a `password` query parameter (`?password=pw`).
 */
export function withoutPassword(url: string): string {
  return url
    .replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@?#]*):[^@/?#]*@/i, '$1:***@')
    .replace(/([?&]password=)[^&#]*/gi, '$1***')
}
