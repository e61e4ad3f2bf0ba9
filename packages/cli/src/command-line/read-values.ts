import { UsageError } from '../usage-error.js'
import type { Command } from './define-command.js'
import { GLOBAL_FLAGS } from './global-flags.js'
import { type ArgSpec, argLabel, type FlagSpec, type FlagsSpec } from './spec.js'
import type { Token } from './tokenize.js'

/** `open or done`, `a, b or c` */
function alternatives(choices: readonly string[]): string {
  const quoted = choices.map((choice) => `'${choice}'`)
  return quoted.length < 2
    ? (quoted[0] ?? '')
    : `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`
}

/**
 * A whole number written in decimal digits, from `min` to `max`, or a UsageError naming
 * `what`: `--limit`, `<id>`.
 */
function integerValue(
  text: string,
  what: string,
  command: string,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
): number {
  const value = /^\d+$/.test(text) ? Number(text) : Number.NaN
  if (!(value >= min && value <= max)) {
    throw new UsageError(
      `${what} must be a whole number from ${min} to ${max}, got '${text}'.`,
      command,
    )
  }
  return value
}

/** The value of option `--name` as its spec types it. */
function flagValue(flag: FlagSpec, name: string, text: string, command: string): unknown {
  switch (flag.type) {
    case 'integer':
      return integerValue(text, `--${name}`, command, flag.min, flag.max)
    case 'choice':
      if (flag.choices.includes(text)) return text
      throw new UsageError(
        `--${name} must be ${alternatives(flag.choices)}, got '${text}'.`,
        command,
      )
    default:
      return flag.type === 'boolean' ? true : text
  }
}

/** The value of a positional argument as its spec types it. */
function argValue(arg: ArgSpec, text: string, command: string): unknown {
  return arg.type === 'integer'
    ? integerValue(text, argLabel(arg), command, arg.min ?? 1, arg.max)
    : text
}

/** The options of `command` (and the global ones) among `tokens`, by name, typed. */
function readFlags(command: Command, tokens: readonly Token[], values: Record<string, unknown>) {
  const allowed: FlagsSpec = { ...GLOBAL_FLAGS, ...command.flags }
  const seen = new Map<string, string>()
  for (const token of tokens) {
    if (token.kind !== 'option') continue
    const flag = Object.hasOwn(allowed, token.name) ? allowed[token.name] : undefined
    if (flag === undefined || (token.negated && !('negation' in flag && flag.negation))) {
      throw new UsageError(
        `The ${command.name} command has no option '${token.raw}'.`,
        command.name,
      )
    }
    const first = seen.get(token.name)
    if ('repeatable' in flag && flag.repeatable && !token.negated) {
      const value = flagValue(flag, token.name, token.value ?? '', command.name)
      const earlier = (values[token.name] as unknown[] | undefined) ?? []
      values[token.name] = [...earlier, value]
      seen.set(token.name, token.raw)
      continue
    }
    if (first !== undefined) {
      // `--tag a --no-tag` contradicts itself; `-v -V` or `--tag a --tag b` repeats.
      const contradicts = first.startsWith('--no-') !== token.negated
      throw new UsageError(
        contradicts
          ? `'${first}' and '${token.raw}' cannot be given together.`
          : `'${first === token.raw ? first : `--${token.name}`}' is given twice.`,
        command.name,
      )
    }
    seen.set(token.name, token.raw)
    values[token.name] = token.negated
      ? false
      : flagValue(flag, token.name, token.value ?? '', command.name)
  }
}

/** The positional arguments of `command`, by name, typed; a variadic one as a list. */
function readArgs(command: Command, args: readonly string[], values: Record<string, unknown>) {
  const { name, args: specs } = command
  const missing = specs[args.length]
  if (missing !== undefined) throw new UsageError(`Missing ${argLabel(missing)}.`, name)
  if (!specs.at(-1)?.variadic && args.length > specs.length) {
    const hint = command.extraArgumentHint === undefined ? '' : ` ${command.extraArgumentHint}`
    throw new UsageError(`Unexpected argument '${args[specs.length]}'${hint}.`, name)
  }
  for (const [index, arg] of specs.entries()) {
    const given = arg.variadic ? args.slice(index) : args.slice(index, index + 1)
    const read = given.map((text) => argValue(arg, text, name))
    values[arg.name] = arg.variadic ? read : read[0]
  }
}

/**
 * The values of `command`'s options (global ones included) and arguments, checked and
 * typed as its spec says: what its run receives.
 */
export function readValues(
  command: Command,
  tokens: readonly Token[],
  args: readonly string[],
): Record<string, unknown> {
  const values: Record<string, unknown> = {}
  readFlags(command, tokens, values)
  readArgs(command, args, values)
  return values
}
