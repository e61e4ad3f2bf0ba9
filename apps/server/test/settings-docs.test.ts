import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { TSchema } from '@sinclair/typebox'
import { describe, expect, it } from 'vitest'
import { envName, SettingsSchema } from '../src/settings/schema.js'
import { BUFFERED_PAGE_MAX } from '../src/tasks/listing.js'

/** Where the settings are documented for operators: one table under "## Settings". */
const OPERATIONS_MD = join(import.meta.dirname, '../../../docs/operations.md')

/** One row of that table, its cells as written (code spans and all). */
interface Row {
  readonly variable: string
  readonly flag: string
  readonly default: string
  readonly meaning: string
}

/** The cells of a Markdown table line: split on `|`, but not on an escaped `\|`. */
function cells(line: string): string[] {
  return line
    .trim()
    .replace(/^\||\|$/g, '')
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim())
}

/** The rows of the first table under `## Settings`, header and delimiter left out. */
function settingsTable(markdown: string): Row[] {
  const lines = markdown.split('\n')
  const heading = lines.indexOf('## Settings')
  if (heading === -1) throw new Error('docs/operations.md has no "## Settings" heading')
  const next = lines.findIndex((line, i) => i > heading && line.startsWith('## '))
  const section = lines.slice(heading + 1, next === -1 ? undefined : next)
  const start = section.findIndex((line) => line.startsWith('|'))
  if (start === -1) throw new Error('the Settings section of docs/operations.md has no table')
  const end = section.findIndex((line, i) => i > start && !line.startsWith('|'))
  const [header, delimiter, ...body] = section.slice(start, end === -1 ? undefined : end)
  if (cells(header ?? '').join(' | ') !== 'variable | flag | default | meaning') {
    throw new Error(`the Settings table's columns are not variable, flag, default, meaning`)
  }
  if (!cells(delimiter ?? '').every((cell) => /^:?-+:?$/.test(cell))) {
    throw new Error(`the Settings table's second line is not a delimiter row: ${delimiter}`)
  }
  return body.map((line) => {
    const [variable = '', flag = '', fallback = '', meaning = '', ...rest] = cells(line)
    if (rest.length > 0) throw new Error(`a Settings row with more than four cells: ${line}`)
    return { variable, flag, default: fallback, meaning }
  })
}

/** The text of a cell that is one code span (`` `PORT` `` → `PORT`), else undefined. */
const codeSpan = (cell: string): string | undefined => /^`([^`]+)`$/.exec(cell)?.[1]

/** The first code span of a cell: `` `0` (off) `` → `0`. */
const firstCodeSpan = (cell: string): string | undefined => /`([^`]+)`/.exec(cell)?.[1]

/** The flag of a variable: its name in kebab case, `DATABASE_URL` → `--database-url`. */
const flagFor = (variable: string) => `--${variable.toLowerCase().replaceAll('_', '-')}`

/**
 * A fixed default as the table shows it (the way --help does): a switch as on/off, a list
 * joined by commas; undefined when the schema has none, or an empty list, for which the
 * table may say it in words ("(none)", "(off)").
 */
function shownDefault(schema: TSchema): string | undefined {
  const value: unknown = schema.default
  if (value === undefined) return undefined
  if (typeof value === 'boolean') return value ? 'on' : 'off'
  if (Array.isArray(value)) return value.length === 0 ? undefined : value.join(',')
  return String(value)
}

const keys = Object.keys(SettingsSchema.properties) as (keyof typeof SettingsSchema.properties)[]
const schemaOf = (key: (typeof keys)[number]) => SettingsSchema.properties[key] as TSchema
const rows = settingsTable(readFileSync(OPERATIONS_MD, 'utf8'))
const rowOf = (variable: string) => rows.find((row) => codeSpan(row.variable) === variable)

describe('the Settings table of docs/operations.md', () => {
  it('names each variable once, as a code span', () => {
    const variables = rows.map((row) => codeSpan(row.variable))
    expect(variables).not.toContain(undefined)
    expect(new Set(variables).size).toBe(variables.length)
  })

  it.each(keys.map((key) => [envName(key), key] as const))(
    'has a row for %s with its flag',
    (variable) => {
      const row = rowOf(variable)
      expect(row, `no row for ${variable}`).toBeDefined()
      expect(codeSpan(row?.flag ?? '')).toBe(flagFor(variable))
      expect(row?.meaning).not.toBe('')
    },
  )

  it('has no row for a variable the schema does not have', () => {
    const known = new Set(keys.map((key) => envName(key)))
    const unknown = rows
      .map((row) => codeSpan(row.variable) ?? row.variable)
      .filter((name) => !known.has(name))
    expect(unknown).toEqual([])
  })

  it.each(keys.map((key) => [envName(key), key] as const))(
    'shows the default of %s',
    (variable, key) => {
      const row = rowOf(variable)
      expect(row, `no row for ${variable}`).toBeDefined()
      const expected = shownDefault(schemaOf(key))
      if (expected === undefined) expect(row?.default).not.toBe('')
      else expect(firstCodeSpan(row?.default ?? '')).toBe(expected)
    },
  )

  it.each(
    keys
      .filter((key) => schemaOf(key).type === 'integer' && schemaOf(key).maximum !== undefined)
      .map((key) => [envName(key), key] as const),
  )('gives the maximum of %s', (variable, key) => {
    const row = rowOf(variable)
    expect(row, `no row for ${variable}`).toBeDefined()
    expect(row?.meaning).toContain(String(schemaOf(key).maximum))
  })

  it('gives MAX_STREAMS the size past which a listing streams, as the server has it', () => {
    // Its numbers before "; past it": the size (the 503 and Retry-After come after).
    const [size] = rowOf('MAX_STREAMS')?.meaning.split('; past it') ?? []
    const sizes = size?.match(/\d[\d,]*/g) ?? []
    expect(sizes.length).toBeGreaterThan(0)
    expect(sizes.map((size) => Number(size.replaceAll(',', '')))).toEqual(
      sizes.map(() => BUFFERED_PAGE_MAX),
    )
  })
})
