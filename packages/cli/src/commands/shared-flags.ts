import type { BooleanFlag, ChoiceFlag, IntegerFlag, StringFlag } from '../command-line/spec.js'

/** `--tag T` of the commands that read tasks. */
export const tag = {
  type: 'string',
  value: 'T',
  short: ['t'],
  help: 'Only tasks with exactly this tag.',
} as const satisfies StringFlag

/** `--status S` of the commands that read tasks. */
export const status = {
  type: 'choice',
  value: 'S',
  choices: ['open', 'done'],
  short: ['s'],
  help: "Only tasks with this status: 'open' or 'done'.",
} as const satisfies ChoiceFlag

/** `--after ID`: keyset paging from an id. */
export const after = {
  type: 'integer',
  value: 'ID',
  min: 0,
  help: 'Only tasks whose id is greater than ID.',
} as const satisfies IntegerFlag

/** `--if-match VERSION` of the commands that change a task: a conditional write. */
export const ifMatch = {
  type: 'integer',
  value: 'VERSION',
  min: 1,
  help: 'Only if its version is still VERSION (see --json); else nothing changes.',
} as const satisfies IntegerFlag

/** `--if-match VERSION` of the commands that change a list: the same, said of the list. */
export const listIfMatch = {
  ...ifMatch,
  help: "Only if the list's version is still VERSION; else nothing changes.",
} as const satisfies IntegerFlag

/** `--json` of the commands that print tasks. */
export const json = {
  type: 'boolean',
  help: 'Print JSON rather than a table.',
} as const satisfies BooleanFlag
