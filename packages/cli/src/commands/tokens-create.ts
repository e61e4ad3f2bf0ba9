import type { Access, NewToken } from '@tasklane/client'
import { defineCommand } from '../command-line/define-command.js'
import { formatTokens } from '../format/access-tables.js'
import { toJson } from '../format/json.js'
import { terminalText } from '../format/terminal-text.js'
import { TASK_NAME } from '../task-text.js'
import { UsageError } from '../usage-error.js'
import { checkText } from './check-text.js'
import { expiryOf } from './expiry.js'
import { listFlag, resolveLists } from './list-ref.js'
import { json } from './shared-flags.js'

/** What a token may allow, as `--role` takes it. */
const ACCESS = ['read', 'write', 'admin'] as const satisfies readonly Access[]

/**
 * `tasklane tokens create --name NAME [--role ROLE] [--list LIST]… [--expires WHEN]
 * [--principal P] [--json]`: makes an access token and prints its secret, once.
 */
export const tokensCreateCommand = defineCommand({
  name: 'tokens create',
  summary: 'Make an access token; print its secret, shown only this once.',
  details:
    '--name says what it is for (needed). --role read makes a token that changes nothing;\n' +
    'write (the default) may do what its principal may; admin, everything (admins only).\n' +
    '--list (an id or a name; again for more) keeps it to those lists. --expires 30d,\n' +
    '12h, 90m or 2w from now, a day (2027-01-01, from its start in UTC) or a moment\n' +
    '(2027-01-01T09:00:00+01:00); by default it never expires. --principal makes it for\n' +
    'another principal (admins only); by default it acts as you. A token never gets\n' +
    'more than the one that makes it. Prints the token and its secret (tl_…): keep it\n' +
    "now, it is never shown again; use it as TASKLANE_TOKEN or with 'tasklane login'.",
  args: [],
  flags: {
    name: { type: 'string', value: 'NAME', help: 'What the token is for (1-200 characters).' },
    role: {
      type: 'choice',
      value: 'ROLE',
      choices: ACCESS,
      help: "'read', 'write' (the default) or 'admin'.",
    },
    list: {
      ...listFlag,
      repeatable: true,
      help: 'Only list LIST (an id or a name); again for more.',
    },
    expires: {
      type: 'string',
      value: 'WHEN',
      help: 'When it stops working: 30d, 12h, 2w, 2027-01-01 (default: never).',
    },
    principal: {
      type: 'string',
      value: 'P',
      help: 'Who it acts as (default: you; another, admins only).',
    },
    json,
  },
  async run(options, context) {
    const command = 'tokens create'
    if (options.name === undefined) {
      throw new UsageError('Give --name NAME: what the token is for.', command)
    }
    checkText(TASK_NAME, options.name, command)
    const token: NewToken = { name: options.name }
    if (options.role !== undefined) token.role = options.role
    if (options.principal !== undefined) token.principal = options.principal
    if (options.expires !== undefined) {
      token.expiresAt = expiryOf(options.expires, new Date(), command)
    }
    if (options.list !== undefined) {
      token.lists = [...new Set(await resolveLists(options.list, context, command))]
    }
    const created = await context.client.createToken(token, { signal: context.signal })
    const { stdout } = context
    if (options.json) {
      stdout.write(`${toJson(created, 2)}\n`)
      return 0
    }
    stdout.write(formatTokens([created]))
    stdout.write(`\nToken: ${terminalText(created.token)}\n`)
    stdout.write(
      "This token is shown only this once: keep it now (TASKLANE_TOKEN, or 'tasklane login').\n",
    )
    return 0
  },
})
