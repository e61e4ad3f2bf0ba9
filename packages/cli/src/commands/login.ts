import { createClient, isApiError, type Me } from '@tasklane/client'
import { defineCommand } from '../command-line/define-command.js'
import type { Context } from '../context.js'
import { serverKey, storeToken } from '../credentials.js'
import { describeError } from '../describe-error.js'
import { escapeControls, terminalText } from '../format/terminal-text.js'
import { INTERRUPTED, readSecret } from '../read-secret.js'
import { UsageError } from '../usage-error.js'

/** What a header value may hold (RFC 9110): visible ASCII and spaces. */
const HEADER_TEXT = /^[\x21-\x7e][\x20-\x7e]*$/

/** The config directory, or a usage error when there is none to store a token in. */
function configDirOf(context: Context): string {
  if (context.configDir !== undefined) return context.configDir
  throw new UsageError(
    'Neither XDG_CONFIG_HOME nor HOME is set, so there is nowhere to store a token: set TASKLANE_TOKEN instead.',
    'login',
  )
}

/**
 * Who `token` is on the server, or undefined when the server refuses it (401, told on
 * stderr); any other failure is thrown.
 */
async function check(token: string, context: Context): Promise<Me | undefined> {
  const client = createClient({ ...context.clientOptions, token })
  try {
    return await client.me({ signal: context.signal })
  } catch (error) {
    if (!isApiError(error) || error.status !== 401) throw error
    context.stderr.write(
      `tasklane: The server refused this token; nothing was stored. ${escapeControls(describeError(error))}\n`,
    )
    return undefined
  }
}

/** True when the server asks for no token at all (open mode): GET /me answers without one. */
async function isOpen(context: Context): Promise<boolean> {
  const { token: _token, ...options } = context.clientOptions
  try {
    await createClient(options).me({ signal: context.signal })
    return true
  } catch (error) {
    if (isApiError(error) && error.status === 401) return false
    throw error
  }
}

/**
 * `tasklane login`: reads a token (typed without echo on a terminal, else the first line
 * of stdin), checks it with GET /me and stores it for the server.
 */
export const loginCommand = defineCommand({
  name: 'login',
  summary: 'Check a token with the server and store it for later commands.',
  details:
    'Reads the token: typed at a prompt, not shown, on a terminal; otherwise the first\n' +
    'line of standard input (`tasklane login < token.txt`). Checks it with GET /me: a\n' +
    'token the server refuses is not stored (exit status 1). Then stores it for this\n' +
    'server (--url, or TASKLANE_URL) in $XDG_CONFIG_HOME/tasklane/credentials.json, else\n' +
    '~/.config/tasklane/credentials.json (the file mode 0600, its directory 0700), one\n' +
    'token a server, replacing any earlier one. Every later command to that server sends\n' +
    "it, unless TASKLANE_TOKEN is set: that wins. 'tasklane logout' removes it.",
  args: [],
  flags: {},
  async run(_options, context) {
    const dir = configDirOf(context)
    const server = serverKey(context.clientOptions.baseUrl)
    const token = await readSecret(
      context.stdin,
      context.stderr,
      `Token for ${terminalText(server)}: `,
      context.signal,
    )
    if (token === INTERRUPTED) return 130
    if (token === '') {
      throw new UsageError(
        'No token was given: type it at the prompt, or pipe it in (tasklane login < token.txt).',
        'login',
      )
    }
    if (!HEADER_TEXT.test(token)) {
      throw new UsageError(
        'A token is printable ASCII: this one has a control or non-ASCII character.',
        'login',
      )
    }
    const me = await check(token, context)
    if (me === undefined) return 1
    if (await isOpen(context)) {
      context.stderr.write(
        `tasklane: ${terminalText(server)} asks for no token (it runs without credentials): nothing was stored.\n`,
      )
      return 1
    }
    const path = storeToken(dir, context.clientOptions.baseUrl, token)
    context.stdout.write(
      `Logged in to ${terminalText(server)} as ${terminalText(me.principal)} (${terminalText(me.role)}). ` +
        `The token is stored in ${terminalText(path)}.\n`,
    )
    if (context.tokenSource === 'env') {
      context.stderr.write('Note: TASKLANE_TOKEN is set, and wins over the stored token.\n')
    }
    return 0
  },
})
