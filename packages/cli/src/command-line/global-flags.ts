import type { FlagsSpec } from './spec.js'

/** Options every command takes, before or after its name. */
export const GLOBAL_FLAGS = {
  url: {
    type: 'string',
    value: 'URL',
    help: 'The server (default: $TASKLANE_URL, else http://127.0.0.1:3000).',
  },
  help: { type: 'boolean', short: ['h'], help: 'Print this help and exit.' },
  // The server takes -v and the CLI took -V: both work for both.
  version: { type: 'boolean', short: ['v', 'V'], help: 'Print the version and exit.' },
} as const satisfies FlagsSpec
