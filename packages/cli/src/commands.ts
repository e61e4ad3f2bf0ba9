/** One option of a command, as `node:util` parseArgs reads it, with its help line. */
export interface OptionSpec {
  readonly type: 'string' | 'boolean'
  readonly short?: string
  /** The value's placeholder in the help, e.g. `N`; none for a boolean. */
  readonly value?: string
  readonly help: string
}

/** A command: its positional arguments, its own options and its help. */
export interface CommandSpec {
  /** Positional arguments in the help, e.g. `<name>`; one entry per required argument. */
  readonly args: readonly string[]
  readonly summary: string
  /** Paragraphs after the usage line of `tasklane <command> --help`. */
  readonly details: string
  readonly options: Readonly<Record<string, OptionSpec>>
}

const tag: OptionSpec = { type: 'string', value: 'T', help: 'Only tasks with exactly this tag.' }
const after: OptionSpec = {
  type: 'string',
  value: 'ID',
  help: 'Only tasks whose id is greater than ID.',
}
const json: OptionSpec = { type: 'boolean', help: 'Print JSON rather than a table.' }

/** Options every command takes. */
export const GLOBAL_OPTIONS: Readonly<Record<string, OptionSpec>> = {
  url: {
    type: 'string',
    value: 'URL',
    help: 'The server (default: $TASKLANE_URL, else http://127.0.0.1:3000).',
  },
  help: { type: 'boolean', short: 'h', help: 'Print this help and exit.' },
}

/** Every command of `tasklane`, in the order the help lists them. */
export const COMMANDS = {
  add: {
    args: ['<name>'],
    summary: 'Create a task and print it.',
    details:
      'Prints the new task with the id the server gave it. The server checks the name and\n' +
      'the tag; its message is printed when it refuses them.',
    options: {
      tag: { type: 'string', value: 'T', help: 'Give the task this tag.' },
      json,
    },
  },
  list: {
    args: [],
    summary: 'List tasks, oldest first.',
    details:
      'Lists every matching task in id order (creation order), or at most N with --limit.\n' +
      'On a terminal the table fits its width; elsewhere names are printed in full.',
    options: {
      limit: { type: 'string', value: 'N', help: 'At most N tasks (0 to 2147483647).' },
      tag,
      after,
      desc: { type: 'boolean', help: 'Newest first.' },
      json,
    },
  },
  get: {
    args: ['<id>'],
    summary: 'Print one task.',
    details: 'Exits with status 1 and the server’s message when no task has this id.',
    options: { json },
  },
  watch: {
    args: [],
    summary: 'Print tasks as they are created, until Ctrl-C.',
    details:
      'Follows the change feed: each new task once, in id order, reconnecting after a\n' +
      'failure. With --after, the tasks above ID come first. One line per task; with\n' +
      '--json one JSON task per line (NDJSON). Ctrl-C or SIGTERM ends it with status 0.',
    options: { tag, after, json },
  },
  export: {
    args: [],
    summary: 'Print every task as NDJSON (one JSON task per line).',
    details:
      'Streams the tasks in id order; `tasklane import` reads the file back. Progress\n' +
      'goes to stderr when stderr is a terminal.',
    options: { tag },
  },
  import: {
    args: ['<file.ndjson>'],
    summary: 'Create a task for each line of an NDJSON file.',
    details:
      'Each line is a JSON object: a new task {"name": ..., "tag": ...}, or a task as\n' +
      '`tasklane export` prints it, whose "id" is left out (the server gives a new one).\n' +
      'Blank lines are skipped; a line the server refuses is reported with its number and\n' +
      'the rest go on. Safe to run again: each line carries an Idempotency-Key made from\n' +
      'its number and its text, so lines already imported are not created twice (the\n' +
      'server keeps keys for at least 24 hours). Prints a summary; progress goes to stderr on a terminal.',
    options: {
      concurrency: {
        type: 'string',
        value: 'N',
        help: "Creates in flight at once, 1 to 256 (default 48); 1 keeps the file's order.",
      },
      json: { type: 'boolean', help: 'Print the summary as one JSON object.' },
    },
  },
} satisfies Record<string, CommandSpec>

/** The name of a command. */
export type CommandName = keyof typeof COMMANDS

/** True when `name` is one of the commands. */
export function isCommand(name: string): name is CommandName {
  return Object.hasOwn(COMMANDS, name)
}
