// The vocabulary in which a command declares its arguments and options, and the types of
// the values it receives, derived from that declaration: a renamed option or a changed
// type breaks compilation where the command reads it.

interface FlagBase {
  /** Its line in the help. */
  readonly help: string
  /** One-letter forms: `['v', 'V']` for `-v` and `-V`. */
  readonly short?: readonly string[]
}

/** `--desc`: true when given; with `negation` (the help of `--no-desc`), false for `--no-desc`. */
export interface BooleanFlag extends FlagBase {
  readonly type: 'boolean'
  readonly negation?: string
}

/** `--tag T`; with `negation` (the help of `--no-tag`), false for `--no-tag`. */
export interface StringFlag extends FlagBase {
  readonly type: 'string'
  /** The value's placeholder in the help: `T`. */
  readonly value: string
  readonly negation?: string
  /** Given any number of times (`--list a --list b`): its value is the list of them. */
  readonly repeatable?: true
}

/** `--limit N`: a whole number written in decimal digits, from `min` to `max` (default 2^53−1). */
export interface IntegerFlag extends FlagBase {
  readonly type: 'integer'
  readonly value: string
  readonly min: number
  readonly max?: number
}

/** `--status S`: one of `choices`. */
export interface ChoiceFlag extends FlagBase {
  readonly type: 'choice'
  readonly value: string
  readonly choices: readonly string[]
  /** Given any number of times (`--type a --type b`): its value is the list of them. */
  readonly repeatable?: true
}

/** One option of a command. */
export type FlagSpec = BooleanFlag | StringFlag | IntegerFlag | ChoiceFlag

/** A command's options by long name: `limit` is `--limit`. */
export type FlagsSpec = Readonly<Record<string, FlagSpec>>

/** A positional argument, `<id>`; a `variadic` one (the last) takes one or more: `<id>…`. */
export interface ArgSpec {
  /** Its key in the options. */
  readonly name: string
  readonly type: 'string' | 'integer'
  /** Its placeholder in the help and in messages; default `<name>`. */
  readonly label?: string
  /** For an integer: the range, by default 1 to 2^53−1 (an id). */
  readonly min?: number
  readonly max?: number
  readonly variadic?: boolean
}

type SingleValue<F> = F extends IntegerFlag
  ? number
  : F extends ChoiceFlag
    ? F['choices'][number]
    : F extends StringFlag
      ? string
      : boolean

/** A repeatable option's values, in the order given; any other's one value. */
type FlagValue<F> = F extends { readonly repeatable: true }
  ? readonly SingleValue<F>[]
  : SingleValue<F>

type Negated<F> = F extends { readonly negation: string } ? false : never

/** The values of the options given: absent when not given, false for `--no-…`. */
export type FlagValues<F extends FlagsSpec> = {
  readonly [K in keyof F]?: FlagValue<F[K]> | Negated<F[K]>
}

type ArgValue<A> = A extends { readonly type: 'integer' } ? number : string

/** The values of the positional arguments, by name; a variadic one as a list. */
export type ArgValues<A extends readonly ArgSpec[]> = {
  readonly [S in A[number] as S['name']]: S extends { readonly variadic: true }
    ? readonly ArgValue<S>[]
    : ArgValue<S>
}

/** What a command's run receives: its arguments and options, typed from its spec. */
export type Options<A extends readonly ArgSpec[], F extends FlagsSpec> = ArgValues<A> &
  FlagValues<F>

/** The placeholder of an argument: `<id>`. */
export function argLabel(arg: ArgSpec): string {
  return arg.label ?? `<${arg.name}>`
}
