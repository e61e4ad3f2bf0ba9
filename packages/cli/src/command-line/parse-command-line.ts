import { UsageError } from '../usage-error.js'
import type { Command, ParsedValues } from './define-command.js'
import { GLOBAL_FLAGS } from './global-flags.js'
import { readValues } from './read-values.js'
import { knownFlags, type Token, tokenize } from './tokenize.js'

/** What the command line asks for. */
export type Invocation =
  | { readonly kind: 'help'; readonly command?: Command }
  | { readonly kind: 'version' }
  | {
      readonly kind: 'run'
      readonly command: Command
      /** Its arguments and options by name, typed as its spec says (the global ones apart). */
      readonly values: ParsedValues
      /** `--url`, when given. */
      readonly url: string | undefined
    }

/**
 * Reads `tasklane [options] <command> [arguments and options]` for these commands: options
 * may come before or after the command. Throws a UsageError for anything it cannot run.
 */
export function parseCommandLine(
  argv: readonly string[],
  commands: readonly Command[],
): Invocation {
  const byName = new Map(commands.map((command) => [command.name, command]))
  let tokens: Token[]
  try {
    tokens = tokenize(argv, knownFlags([GLOBAL_FLAGS, ...commands.map(({ flags }) => flags)]))
  } catch (error) {
    // Its help explains the option, when the command can be told.
    const named = argv.find((word) => byName.has(word))
    if (error instanceof UsageError && named !== undefined) {
      throw new UsageError(error.message, named)
    }
    throw error
  }
  const [first, ...args] = tokens.flatMap((token) =>
    token.kind === 'positional' ? [token.value] : [],
  )
  const command = first === undefined ? undefined : byName.get(first)
  if (first === 'help') {
    const topic = args[0]
    const about = topic === undefined ? undefined : byName.get(topic)
    if (topic !== undefined && about === undefined) {
      throw new UsageError(`Unknown command '${topic}'.`)
    }
    return { kind: 'help', command: about }
  }
  if (first !== undefined && command === undefined) {
    throw new UsageError(`Unknown command '${first}'.`)
  }
  const given = (name: string) =>
    tokens.some((token) => token.kind === 'option' && token.name === name)
  if (given('help')) return { kind: 'help', command }
  if (given('version')) return { kind: 'version' }
  if (command === undefined) throw new UsageError('Missing command.')

  const { url, help: _help, version: _version, ...values } = readValues(command, tokens, args)
  return { kind: 'run', command, values, url: url as string | undefined }
}
