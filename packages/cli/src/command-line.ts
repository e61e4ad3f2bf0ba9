import { parseArgs } from 'node:util'
import {
  COMMANDS,
  type CommandName,
  GLOBAL_OPTIONS,
  isCommand,
  type OptionSpec,
} from './commands.js'
import { UsageError } from './usage-error.js'

/** What the command line asks for. */
export type Invocation =
  | { readonly kind: 'help'; readonly command?: CommandName }
  | { readonly kind: 'version' }
  | {
      readonly kind: 'run'
      readonly command: CommandName
      /** The command's positional arguments, e.g. the name of `add`. */
      readonly args: readonly string[]
      /** Its options by name: a string, or true for a boolean flag that is set. */
      readonly options: Readonly<Record<string, string | boolean | undefined>>
      /** `--url`, when given. */
      readonly url: string | undefined
    }

/** Every option any command takes, for the first pass that finds the command. */
const ALL_OPTIONS: Record<string, OptionSpec> = Object.assign(
  { version: { type: 'boolean', short: 'V', help: '' } },
  GLOBAL_OPTIONS,
  ...Object.values(COMMANDS).map((command) => command.options),
)

/** `Unknown option '--limt'`: the first sentence of parseArgs' message, without its advice. */
function firstSentence(message: string): string {
  const line = message.split('\n')[0] ?? ''
  const end = line.indexOf('. ')
  return (end === -1 ? line : line.slice(0, end)).replace(/\.$/, '')
}

/**
 * Reads `tasklane [options] <command> [arguments and options]`: options may come before
 * or after the command. Throws a UsageError for anything it cannot run.
 */
export function parseCommandLine(argv: readonly string[]): Invocation {
  const parse = () => {
    try {
      return parseArgs({
        args: [...argv],
        options: ALL_OPTIONS,
        allowPositionals: true,
        strict: true,
        tokens: true,
      })
    } catch (error) {
      throw new UsageError(firstSentence((error as Error).message), argv.find(isCommand))
    }
  }
  const { positionals, values, tokens } = parse()
  const [first, ...args] = positionals
  if (first === 'help') {
    const topic = args[0]
    if (topic !== undefined && !isCommand(topic)) throw new UsageError(`Unknown command '${topic}'`)
    return { kind: 'help', command: topic }
  }
  if (first !== undefined && !isCommand(first)) throw new UsageError(`Unknown command '${first}'`)
  if (values.help) return { kind: 'help', command: first }
  if (values.version) return { kind: 'version' }
  if (first === undefined) throw new UsageError('Missing command')

  const spec = COMMANDS[first]
  const allowed: Record<string, OptionSpec> = { ...GLOBAL_OPTIONS, ...spec.options }
  const seen = new Set<string>()
  for (const token of tokens) {
    if (token.kind !== 'option') continue
    if (!Object.hasOwn(allowed, token.name)) {
      throw new UsageError(`${first} has no option '${token.rawName}'`, first)
    }
    if (seen.has(token.name)) throw new UsageError(`'${token.rawName}' is given twice`, first)
    seen.add(token.name)
  }
  if (args.length < spec.args.length) {
    throw new UsageError(`Missing ${spec.args[args.length]}`, first)
  }
  if (args.length > spec.args.length) {
    const extra = args[spec.args.length]
    const hint = first === 'add' ? ' (quote a name that has spaces)' : ''
    throw new UsageError(`Unexpected argument '${extra}'${hint}`, first)
  }
  const { url, help: _help, version: _version, ...options } = values
  return {
    kind: 'run',
    command: first,
    args,
    options,
    url: url as string | undefined,
  }
}

/**
 * A whole number written in decimal digits, from `min` to `max`, or a UsageError naming
 * `what`: `--limit`, `<id>`.
 */
export function integerArgument(
  text: string,
  what: string,
  command: CommandName,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
): number {
  const value = /^\d+$/.test(text) ? Number(text) : Number.NaN
  if (!(value >= min && value <= max)) {
    throw new UsageError(
      `${what} must be a whole number from ${min} to ${max}, got '${text}'`,
      command,
    )
  }
  return value
}
