import { defineCommand } from '../command-line/define-command.js'
import { removeToken, serverKey } from '../credentials.js'
import { terminalText } from '../format/terminal-text.js'

/** `tasklane logout`: removes the token `tasklane login` stored for the server. */
export const logoutCommand = defineCommand({
  name: 'logout',
  summary: "Remove the token 'tasklane login' stored for the server.",
  details:
    'Removes the token stored for this server (--url, or TASKLANE_URL) from the config\n' +
    'directory; the token itself still works until revoked (tasklane tokens revoke).\n' +
    'Exit status 0 also when none was stored.',
  args: [],
  flags: {},
  async run(_options, context) {
    const server = terminalText(serverKey(context.clientOptions.baseUrl))
    const { configDir } = context
    const removed = configDir !== undefined && removeToken(configDir, context.clientOptions.baseUrl)
    context.stdout.write(
      removed
        ? `Removed the token stored for ${server}.\n`
        : `No token was stored for ${server}.\n`,
    )
    if (context.tokenSource === 'env') {
      context.stderr.write('Note: TASKLANE_TOKEN is still set, and still sent.\n')
    }
    return 0
  },
})
