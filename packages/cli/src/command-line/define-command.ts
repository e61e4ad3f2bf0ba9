import type { Context } from '../context.js'
import type { GLOBAL_FLAGS } from './global-flags.js'
import type { ArgSpec, FlagsSpec, Options } from './spec.js'

/** The values parseCommandLine read for a command, by name, before they meet its types. */
export type ParsedValues = Readonly<Record<string, unknown>>

/** A command as the command line, the help and run() see it. */
export interface Command {
  /** The word that names it: `tasklane list`. */
  readonly name: string
  /** Its line in `tasklane --help`. */
  readonly summary: string
  /** Paragraphs after the usage line of `tasklane <command> --help`. */
  readonly details: string
  readonly args: readonly ArgSpec[]
  readonly flags: FlagsSpec
  /** Said after "Unexpected argument 'x'", e.g. `(quote a name that has spaces)`. */
  readonly extraArgumentHint?: string
  /**
   * A group's commands (`webhooks create`, `webhooks ls`), each named in full: the word
   * after the group's picks one. A group itself takes no arguments and runs nothing.
   */
  readonly subcommands?: readonly Command[]
  /**
   * A group's command that runs when no subcommand is named: `tasklane lists` runs
   * `lists ls`, `tasklane members Groceries` runs `members ls Groceries`.
   */
  readonly defaultSubcommand?: Command
  /** Runs it with the values read from its spec; resolves to the exit status. */
  execute(values: ParsedValues, context: Context): Promise<number>
}

/** What a command declares: its spec, and its run, whose options are typed from the spec. */
export interface CommandSpec<A extends readonly ArgSpec[], F extends FlagsSpec>
  extends Omit<Command, 'args' | 'flags' | 'execute'> {
  readonly args: A
  readonly flags: F
  /** Does the work; resolves to the exit status (0 success, 1 an error it reported). */
  run(options: Options<A, F>, context: Context): Promise<number>
}

/** A command with its typed run, which a test may call with options of its own. */
export type TypedCommand<A extends readonly ArgSpec[], F extends FlagsSpec> = Command &
  Pick<CommandSpec<A, F>, 'run'>

/**
 * An option and an argument of the same name would share one key of the options; so would
 * an argument named as a global option (`<url>` named `url` would be taken for --url).
 */
type NoClash<A extends readonly ArgSpec[], F extends FlagsSpec> = [
  Extract<keyof F | keyof typeof GLOBAL_FLAGS, A[number]['name']>,
] extends [never]
  ? unknown
  : { readonly flags: 'an option has the name of an argument' }

/**
 * One command in one declaration: its arguments, its options and its run, which receives
 * them typed from the declaration.
 *
 * @example
 * export const getCommand = defineCommand({
 *   name: 'get',
 *   summary: 'Print one task.',
 *   details: '',
 *   args: [{ name: 'id', type: 'integer', min: 1 }],
 *   flags: { json: { type: 'boolean', help: 'Print JSON.' } },
 *   async run({ id, json }, context) { ... }, // id: number, json?: boolean
 * })
 */
export function defineCommand<const A extends readonly ArgSpec[], const F extends FlagsSpec>(
  spec: CommandSpec<A, F> & NoClash<A, F>,
): TypedCommand<A, F> {
  return {
    ...spec,
    // parseCommandLine built `values` from this very spec: the shape Options<A, F> names.
    execute: (values, context) => spec.run(values as Options<A, F>, context),
  }
}

/** What a group of commands declares: `tasklane webhooks <command>`. */
export interface GroupSpec {
  readonly name: string
  readonly summary: string
  readonly details: string
  /** Its commands, each named `<group> <word>`, in the order its help lists them. */
  readonly subcommands: readonly Command[]
  /** The one of them that runs when the word after the group names none. */
  readonly defaultSubcommand?: Command
}

/**
 * A command that only names others: `tasklane webhooks create` runs the group's `create`.
 * The command line picks the subcommand before anything runs, so the group's own execute
 * is never called.
 */
export function defineGroup(spec: GroupSpec): Command {
  return {
    ...spec,
    args: [],
    flags: {},
    execute: () => Promise.reject(new Error(`${spec.name} runs only through a subcommand`)),
  }
}
