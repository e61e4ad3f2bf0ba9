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
  const every = commands.flatMap((command) => [command, ...(command.subcommands ?? [])])
  let tokens: Token[]
  try {
    tokens = tokenize(argv, knownFlags([GLOBAL_FLAGS, ...every.map(({ flags }) => flags)]))
  } catch (error) {
    // Its help explains the option, when the command can be told.
    const named = argv.find((word) => byName.has(word))
    if (error instanceof UsageError && named !== undefined) {
      throw new UsageError(error.message, named)
    }
    throw error
  }
  const [first, ...words] = tokens.flatMap((token) =>
    token.kind === 'positional' ? [token.value] : [],
  )
  if (first === 'help') {
    const topic = words[0]
    const about = topic === undefined ? undefined : byName.get(topic)
    if (topic !== undefined && about === undefined) {
      throw new UsageError(`Unknown command '${topic}'.`)
    }
    return { kind: 'help', command: about && pickSubcommand(about, words.slice(1), true).command }
  }
  const named = first === undefined ? undefined : byName.get(first)
  if (first !== undefined && named === undefined) {
    throw new UsageError(`Unknown command '${first}'.`)
  }
  const given = (name: string) =>
    tokens.some((token) => token.kind === 'option' && token.name === name)
  if (given('help')) {
    return { kind: 'help', command: named && pickSubcommand(named, words, true).command }
  }
  if (given('version')) return { kind: 'version' }
  if (named === undefined) throw new UsageError('Missing command.')
  const { command, args } = pickSubcommand(named, words)
  if (command.subcommands !== undefined) {
    throw new UsageError(`Missing ${command.name} command.`, command.name)
  }

  const { url, help: _help, version: _version, ...values } = readValues(command, tokens, args)
  return { kind: 'run', command, values, url: url as string | undefined }
}

/**
 * The subcommand of a group that the first of `words` names (`create` of `webhooks`), and
 * the words after it; else the group's default subcommand with every word, when it has
 * one (and takes arguments, if a word came); any other command, or a group with no word
 * after it and no default (or whose help is asked for), as it is.
 */
function pickSubcommand(
  command: Command,
  words: readonly string[],
  forHelp = false,
): { command: Command; args: readonly string[] } {
  const [word, ...rest] = words
  const fallback = command.defaultSubcommand
  if (command.subcommands === undefined) return { command, args: words }
  // `tasklane lists --help` is the group's help; `tasklane lists` runs its default.
  if (word === undefined)
    return { command: (forHelp ? undefined : fallback) ?? command, args: words }
  const sub = command.subcommands.find(({ name }) => name === `${command.name} ${word}`)
  if (sub !== undefined) return { command: sub, args: rest }
  // A word that names no subcommand is the default's argument, when it takes one.
  if (fallback !== undefined && fallback.args.length > 0) return { command: fallback, args: words }
  throw new UsageError(`Unknown ${command.name} command '${word}'.`, command.name)
}
