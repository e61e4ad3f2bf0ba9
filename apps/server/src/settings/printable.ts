import type { Settings } from './parse.js'
import { schemaOf, settingKeys } from './schema.js'
import { withoutPassword } from './without-password.js'

/** The DATABASE_* settings as the storage holds them (PostgreSQL's only on PostgreSQL). */
function databaseSettings({ storage }: Settings): Record<string, unknown> {
  if (storage.kind === 'sqlite') return { databaseUrl: storage.filename }
  return {
    databaseUrl: storage.url,
    databasePoolSize: storage.poolSize,
    databaseTimeoutMs: storage.timeoutMs,
    databaseDirectUrl: storage.directUrl,
    databasePreparedStatements: storage.preparedStatements,
  }
}

/**
 * The settings with secrets masked and passwords taken out of URLs, for a log line; an
 * SQLite database as the absolute path it was resolved to, whatever DATABASE_URL said.
 */
export function printable(settings: Settings): Record<string, unknown> {
  const values: Record<string, unknown> = { ...settings, ...databaseSettings(settings) }
  const shown: Record<string, unknown> = {}
  for (const key of settingKeys) {
    if (!(key in values)) continue
    const value = values[key]
    if (schemaOf(key).secret) shown[key] = value === undefined ? undefined : '***'
    else if (typeof value === 'string' && /^[a-z][a-z0-9+.-]*:\/\//i.test(value)) {
      shown[key] = withoutPassword(value)
    } else shown[key] = value
  }
  return shown
}
