import type { Command } from './define-command.js'
import { GLOBAL_FLAGS } from './global-flags.js'
import { argLabel, type FlagSpec, type FlagsSpec } from './spec.js'

const ENVIRONMENT = `Environment:
  TASKLANE_URL    The server, when --url is not given (default http://127.0.0.1:3000).
  TASKLANE_TOKEN  API token, sent as "Authorization: Bearer <token>"; it wins over
                  the token 'tasklane login' stored for the server.
  XDG_CONFIG_HOME Where 'tasklane login' stores tokens: its tasklane/ directory (default
                  ~/.config/tasklane/).`

const EXIT_STATUS = `Exit status: 0 on success, 1 on an API or connection error (the server's
message on stderr), 2 on a usage error.`

/** `--limit N`, `--desc` */
function flagWithValue(name: string, flag: FlagSpec): string {
  return flag.type === 'boolean' ? `--${name}` : `--${name} ${flag.value}`
}

/** `  -h, --help     Print this help and exit.`, aligned; `--no-…` on a line of its own. */
function optionLines(flags: FlagsSpec): string {
  const entries = Object.entries(flags).flatMap(([name, flag]) => {
    const short = (flag.short ?? []).map((letter) => `-${letter}, `).join('')
    const line: [string, string] = [`${short || '    '}${flagWithValue(name, flag)}`, flag.help]
    const negation = 'negation' in flag ? flag.negation : undefined
    return negation === undefined ? [line] : [line, [`    --no-${name}`, negation] as const]
  })
  const width = Math.max(...entries.map(([left]) => left.length))
  return entries.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`).join('\n')
}

/** `list [--limit N] [--tag T | --no-tag] [--desc]`, `done <id>…` */
function synopsis(command: Command): string {
  const args = command.args.map((arg) => `${argLabel(arg)}${arg.variadic ? '…' : ''}`)
  const flags = Object.entries(command.flags).map(([name, flag]) => {
    const negation = 'negation' in flag && flag.negation !== undefined ? ` | --no-${name}` : ''
    const repeats = 'repeatable' in flag && flag.repeatable ? '…' : ''
    return `[${flagWithValue(name, flag)}${negation}]${repeats}`
  })
  return [command.name, ...args, ...flags].join(' ')
}

/** `  add   Add a task.`, one line a command, the summaries aligned. */
function commandLines(commands: readonly Command[]): string {
  const width = Math.max(...commands.map(({ name }) => name.length))
  return commands.map(({ name, summary }) => `  ${name.padEnd(width)}  ${summary}`).join('\n')
}

/** The overall help, `tasklane --help`. */
export function mainHelp(commands: readonly Command[]): string {
  return `Usage: tasklane <command> [options]

The command line of tasklane, a task-tracking service.

Commands:
${commandLines(commands)}

Options:
${optionLines(GLOBAL_FLAGS)}

${ENVIRONMENT}

${EXIT_STATUS}

Run 'tasklane <command> --help' for a command's options.
`
}

/** The help of a group of commands, `tasklane webhooks --help`. */
function groupHelp(group: Command, subcommands: readonly Command[]): string {
  const fallback = group.defaultSubcommand
  const usage =
    fallback === undefined
      ? ''
      : `\n       tasklane ${synopsis({ ...fallback, name: group.name })}  (${fallback.name})`
  return `Usage: tasklane ${group.name} <command> [options]${usage}

${group.summary}
${group.details}

Commands:
${commandLines(subcommands)}

Run 'tasklane ${group.name} <command> --help' for a command's options.
`
}

/** The help of one command, `tasklane list --help`, or of a group, `tasklane webhooks --help`. */
export function commandHelp(command: Command): string {
  if (command.subcommands !== undefined) return groupHelp(command, command.subcommands)
  const { url, help } = GLOBAL_FLAGS
  return `Usage: tasklane ${synopsis(command)} [--url URL]

${command.summary}
${command.details}

Options:
${optionLines({ ...command.flags, url, help })}

${ENVIRONMENT}

${EXIT_STATUS}
`
}
