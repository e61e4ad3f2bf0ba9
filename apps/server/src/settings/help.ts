import { flagOf, schemaOf, settingKeys } from './schema.js'

/** A default as --help shows it: `on`/`off`, a list joined by commas, `(none)`. */
function shownDefault(key: (typeof settingKeys)[number]): string {
  const schema = schemaOf(key)
  if (schema.derivedDefault) return schema.derivedDefault
  const value: unknown = schema.default
  if (Array.isArray(value)) return value.join(',') || '(none)'
  if (typeof value === 'boolean') return value ? 'on' : 'off'
  return value === undefined ? '(none)' : String(value)
}

/** `--help`: every setting with its flag, variable, default and meaning, from the schema. */
export function helpText(bin = 'tasklane-server'): string {
  const rows = settingKeys.map((key) => {
    const schema = schemaOf(key)
    return [
      `--${flagOf(key)} <value>`,
      schema.env,
      `${schema.description} Default: ${shownDefault(key)}.`,
    ]
  })
  rows.push(['-h, --help', '', 'Print this help and exit.'])
  rows.push(['-v, -V, --version', '', 'Print the version and exit.'])
  const width = (i: number) => Math.max(...rows.map((row) => (row[i] as string).length))
  const [flagWidth, envWidth] = [width(0), width(1)]
  const lines = rows.map(
    ([flag, envVar, text]) =>
      `  ${(flag as string).padEnd(flagWidth)}  ${(envVar as string).padEnd(envWidth)}  ${text}`,
  )
  return [
    `Usage: ${bin} [options]`,
    '',
    'Starts the tasklane HTTP server. Every option can also be set with its environment',
    'variable; a flag wins over its variable.',
    '',
    'Options:',
    ...lines,
    '',
  ].join('\n')
}
