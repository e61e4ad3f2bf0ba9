import { defineCommand } from '../command-line/define-command.js'
import { formatTokens } from '../format/access-tables.js'
import { toJson } from '../format/json.js'
import { json } from './shared-flags.js'

/** `tasklane tokens ls [--json]`: your access tokens, never their secrets. */
export const tokensLsCommand = defineCommand({
  name: 'tokens ls',
  summary: 'List your access tokens (an admin: every one), never their secrets.',
  details:
    'One line a token: its id, name, principal, role (read, write, admin), the lists it\n' +
    'is kept to (all: every list of its principal), when it expires (never: it does\n' +
    'not) and when it was made. Revoked tokens are not listed; expired ones are.',
  args: [],
  flags: { json },
  async run(options, context) {
    const tokens = await context.client.listTokens({ signal: context.signal })
    const { stdout } = context
    if (options.json) stdout.write(`${toJson(tokens, 2)}\n`)
    else if (tokens.length === 0) stdout.write('No tokens.\n')
    else stdout.write(formatTokens(tokens))
    return 0
  },
})
