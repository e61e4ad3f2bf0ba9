import { resolve } from 'node:path'
import { ConfigError } from './config-error.js'
import { DEFAULT_DATABASE_FILE } from './database-settings.js'

/** Where DATABASE_URL points: an SQLite file (absolute, or `:memory:`) or a PostgreSQL URL. */
export type DatabaseTarget =
  | { readonly kind: 'sqlite'; readonly filename: string }
  | { readonly kind: 'postgres'; readonly url: string }

/**
 * `DATABASE_URL`: `postgres://…` or `postgresql://…` selects PostgreSQL; a file path, or
 * `sqlite:` followed by one, selects SQLite. Relative paths resolve against `cwd`.
 */
export function parseDatabaseUrl(
  value: string | undefined,
  cwd: string = process.cwd(),
): DatabaseTarget {
  const url = value?.trim() || DEFAULT_DATABASE_FILE
  if (/^postgres(ql)?:\/\//i.test(url)) return { kind: 'postgres', url }
  const path = url.replace(/^sqlite:(\/\/(?=\/))?/i, '')
  if (path === '' || /^[a-z][a-z0-9+.-]*:\/\//i.test(path)) {
    throw new ConfigError(
      `DATABASE_URL "${url}" is neither a PostgreSQL URL nor an SQLite file path.`,
    )
  }
  return { kind: 'sqlite', filename: path === ':memory:' ? path : resolve(cwd, path) }
}
