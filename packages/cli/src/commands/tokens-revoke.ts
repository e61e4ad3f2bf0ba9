import { defineCommand } from '../command-line/define-command.js'

/** `tasklane tokens revoke <id>`: the token stops working at once. */
export const tokensRevokeCommand = defineCommand({
  name: 'tokens revoke',
  summary: 'Revoke an access token: its next request is refused.',
  details:
    "<id> is the token's id (tasklane tokens ls). Prints `Revoked token 3.`; exit status\n" +
    '1 when you have no token 3.',
  args: [{ name: 'id', type: 'integer' }],
  flags: {},
  async run(options, context) {
    await context.client.revokeToken(options.id, { signal: context.signal })
    context.stdout.write(`Revoked token ${options.id}.\n`)
    return 0
  },
})
