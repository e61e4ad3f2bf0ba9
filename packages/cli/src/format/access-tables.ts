import type { List, Member, Token } from '@tasklane/client'
import { columns } from './columns.js'
import { terminalText } from './terminal-text.js'

/** Lists as a table with the header `ID  NAME`, ids right-aligned. */
export function formatLists(lists: readonly List[]): string {
  const rows = [['ID', 'NAME'], ...lists.map((list) => [list.id, list.name].map(terminalText))]
  return columns(rows, new Set([0]))
}

/** A list's members as a table with the header `PRINCIPAL  ROLE`. */
export function formatMembers(members: readonly Member[]): string {
  const rows = [
    ['PRINCIPAL', 'ROLE'],
    ...members.map((member) => [member.principal, member.role].map(terminalText)),
  ]
  return columns(rows, new Set())
}

/**
 * Access tokens as a table with the header `ID  NAME  PRINCIPAL  ROLE  LISTS  EXPIRES
 * CREATED`: LISTS `all` when the token reaches every list of its principal, EXPIRES
 * `never` when it has no expiry. Never a secret.
 */
export function formatTokens(tokens: readonly Token[]): string {
  const rows = [
    ['ID', 'NAME', 'PRINCIPAL', 'ROLE', 'LISTS', 'EXPIRES', 'CREATED'],
    ...tokens.map((token) => [
      terminalText(token.id),
      terminalText(token.name),
      terminalText(token.principal),
      terminalText(token.role),
      Array.isArray(token.lists) ? terminalText(token.lists.join(',')) : 'all',
      token.expiresAt === undefined ? 'never' : terminalText(token.expiresAt),
      terminalText(token.createdAt),
    ]),
  ]
  return columns(rows, new Set([0]))
}
