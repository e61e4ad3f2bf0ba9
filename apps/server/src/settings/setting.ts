import type { TSchema } from '@sinclair/typebox'

/**
 * Where a setting comes from and how it is shown: its environment variable (the flag is
 * the same name in kebab case), the phrase for what a valid value is when the schema
 * alone cannot say it, whether it is a secret (never printed), and whether only
 * PostgreSQL reads it (an SQLite server ignores it, even when it is not valid).
 */
export interface Source {
  env: string
  expected?: string
  /** What --help says the default is, when it is worked out at start-up rather than fixed. */
  derivedDefault?: string
  secret?: boolean
  postgresOnly?: boolean
}

/** A setting: its schema, with where it comes from and how it is shown. */
export const setting = <T extends TSchema>(schema: T, source: Source): T =>
  Object.assign(schema, source)
