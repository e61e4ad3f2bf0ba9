import { COMMANDS, type CommandName, GLOBAL_OPTIONS, type OptionSpec } from './commands.js'

const ENVIRONMENT = `Environment:
  TASKLANE_URL    The server, when --url is not given (default http://127.0.0.1:3000).
  TASKLANE_TOKEN  API token, sent as "Authorization: Bearer <token>".`

const EXIT_STATUS = `Exit status: 0 on success, 1 on an API or connection error (the server's
message on stderr), 2 on a usage error.`

/** `  --limit N    At most N tasks.`, aligned. */
function optionLines(options: Readonly<Record<string, OptionSpec>>): string {
  const entries = Object.entries(options).map(([name, option]) => {
    const short = option.short === undefined ? '    ' : `-${option.short}, `
    return [`${short}--${name}${option.value === undefined ? '' : ` ${option.value}`}`, option.help]
  })
  const width = Math.max(...entries.map(([left]) => left?.length ?? 0))
  return entries.map(([left = '', right]) => `  ${left.padEnd(width)}  ${right}`).join('\n')
}

/** `add <name> [--tag T] [--json]` */
function synopsis(name: CommandName): string {
  const { args, options } = COMMANDS[name]
  const flags = Object.entries(options as Readonly<Record<string, OptionSpec>>).map(
    ([option, spec]) => `[--${option}${spec.value === undefined ? '' : ` ${spec.value}`}]`,
  )
  return [name, ...args, ...flags].join(' ')
}

/** The overall help, `tasklane --help`. */
export function mainHelp(): string {
  const names = Object.keys(COMMANDS) as CommandName[]
  const width = Math.max(...names.map((name) => name.length))
  const commands = names.map((name) => `  ${name.padEnd(width)}  ${COMMANDS[name].summary}`)
  return `Usage: tasklane <command> [options]

The command line of tasklane, a task-tracking service.

Commands:
${commands.join('\n')}

Options:
${optionLines({ ...GLOBAL_OPTIONS, version: { type: 'boolean', short: 'V', help: 'Print the version and exit.' } })}

${ENVIRONMENT}

${EXIT_STATUS}

Run 'tasklane <command> --help' for a command's options.
`
}

/** The help of one command, `tasklane list --help`. */
export function commandHelp(name: CommandName): string {
  const spec = COMMANDS[name]
  return `Usage: tasklane ${synopsis(name)} [--url URL]

${spec.summary}
${spec.details}

Options:
${optionLines({ ...spec.options, ...GLOBAL_OPTIONS })}

${ENVIRONMENT}

${EXIT_STATUS}
`
}
