import { UsageError } from '../usage-error.js'
import type { FlagsSpec } from './spec.js'

/** One word of the command line, read: an option (with its value) or a positional argument. */
export type Token =
  | {
      readonly kind: 'option'
      /** Its long name: `limit` for `--limit`, `-l` or `--no-limit`. */
      readonly name: string
      /** As written: `--limit`, `-v`, `--no-tag`. */
      readonly raw: string
      /** `--no-<name>`. */
      readonly negated: boolean
      /** The value of an option that takes one. */
      readonly value?: string
    }
  | { readonly kind: 'positional'; readonly value: string }

/** What the tokenizer must know of an option name: whatever command declares it. */
export interface KnownFlag {
  readonly takesValue: boolean
  /** Some command takes `--no-<name>`. */
  readonly negatable: boolean
}

/** Every option name of these specs, and every one-letter form, to the long name. */
export function knownFlags(specs: readonly FlagsSpec[]): {
  long: Map<string, KnownFlag>
  short: Map<string, string>
} {
  const long = new Map<string, KnownFlag>()
  const short = new Map<string, string>()
  for (const flags of specs) {
    for (const [name, flag] of Object.entries(flags)) {
      const takesValue = flag.type !== 'boolean'
      const seen = long.get(name)
      // The command is not known until its name is read, so a name reads alike in all.
      if (seen !== undefined && seen.takesValue !== takesValue) {
        throw new Error(`--${name} takes a value in one command and none in another`)
      }
      const negatable = 'negation' in flag && flag.negation !== undefined
      long.set(name, { takesValue, negatable: negatable || seen?.negatable === true })
      for (const letter of flag.short ?? []) short.set(letter, name)
    }
  }
  return { long, short }
}

/** `-1`, `-5`: no option is a digit, so a negative number is a value. */
const NEGATIVE_NUMBER = /^-\d/

/** True when `word` is a value (an argument, an option's value) rather than an option. */
function isValue(word: string): boolean {
  return word === '-' || !word.startsWith('-') || NEGATIVE_NUMBER.test(word)
}

/**
 * Reads the words of a command line: `--name value`, `--name=value`, `-v`, `--no-name`,
 * `--` (the rest are arguments) and arguments. An option that takes a value takes the next
 * word unless that is another option; a negative number is a value, never an option.
 */
export function tokenize(argv: readonly string[], known: ReturnType<typeof knownFlags>): Token[] {
  const tokens: Token[] = []
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i] as string
    if (word === '--') {
      for (const rest of argv.slice(i + 1)) tokens.push({ kind: 'positional', value: rest })
      break
    }
    if (isValue(word)) {
      tokens.push({ kind: 'positional', value: word })
      continue
    }
    const equals = word.startsWith('--') ? word.indexOf('=') : -1
    const raw = equals === -1 ? word : word.slice(0, equals)
    const inline = equals === -1 ? undefined : word.slice(equals + 1)
    const { name, negated } = resolve(raw, known)
    const takesValue = !negated && known.long.get(name)?.takesValue === true
    if (!takesValue) {
      if (inline !== undefined) throw new UsageError(`Option '${raw}' takes no value.`)
      tokens.push({ kind: 'option', name, raw, negated })
      continue
    }
    if (inline !== undefined) {
      tokens.push({ kind: 'option', name, raw, negated, value: inline })
      continue
    }
    const next = argv[i + 1]
    if (next === undefined || !isValue(next)) {
      const how = next === undefined ? '' : ` Write ${raw}=VALUE for one that starts with '-'.`
      throw new UsageError(`Option '${raw}' needs a value.${how}`)
    }
    tokens.push({ kind: 'option', name, raw, negated, value: next })
    i++
  }
  return tokens
}

/** The long name of `--name`, `--no-name` or `-n`, or a UsageError. */
function resolve(
  raw: string,
  known: ReturnType<typeof knownFlags>,
): { name: string; negated: boolean } {
  if (!raw.startsWith('--')) {
    const name = raw.length === 2 ? known.short.get(raw.slice(1)) : undefined
    if (name === undefined) throw new UsageError(`Unknown option '${raw}'.`)
    return { name, negated: false }
  }
  const name = raw.slice(2)
  if (known.long.has(name)) return { name, negated: false }
  if (name.startsWith('no-') && known.long.get(name.slice(3))?.negatable) {
    return { name: name.slice(3), negated: true }
  }
  throw new UsageError(`Unknown option '${raw}'.`)
}
