import { type ClientOptions, createClient, isTasklaneError } from '@tasklane/client'
import type { Command } from './command-line/define-command.js'
import { commandHelp, mainHelp } from './command-line/help.js'
import { type Invocation, parseCommandLine } from './command-line/parse-command-line.js'
import { COMMANDS } from './commands/index.js'
import { type Context, interruptedStatus, type Output, type TokenSource } from './context.js'
import { CredentialsError, storedToken } from './credentials.js'
import { authHint, describeError, listHint } from './describe-error.js'
import { FileError } from './file-error.js'
import { escapeControls } from './format/terminal-text.js'
import { UsageError } from './usage-error.js'

/** Where the server is when neither --url nor TASKLANE_URL says. */
export const DEFAULT_URL = 'http://127.0.0.1:3000'

/**
 * Everything the CLI takes from its process, read once by main.ts; a test gives its own
 * (streams that collect the output, a `fetch`, other commands).
 */
export interface Environment {
  readonly argv: readonly string[]
  /** TASKLANE_URL and TASKLANE_TOKEN. */
  readonly env: { readonly TASKLANE_URL?: string; readonly TASKLANE_TOKEN?: string }
  readonly stdin: NodeJS.ReadableStream
  readonly stdout: Output
  readonly stderr: Output
  readonly signal: AbortSignal
  readonly version: string
  /** The client's fetch; default Node's own (and for `import`, one on node:http). */
  readonly fetch?: typeof globalThis.fetch
  /** The commands to run; default every command of `tasklane`. */
  readonly commands?: readonly Command[]
  /**
   * Where `tasklane login` keeps its tokens ($XDG_CONFIG_HOME/tasklane or
   * ~/.config/tasklane, see credentials.ts); undefined: none is read or stored.
   */
  readonly configDir?: string
}

/** What a header value may not hold (RFC 9110: visible ASCII, spaces and tabs only). */
const NOT_HEADER_TEXT = /[^\t\x20-\x7e]/

/** The client's options, and where its token came from. */
interface ClientSetup {
  readonly options: ClientOptions
  readonly tokenSource: TokenSource
}

/**
 * The client's options: --url, else TASKLANE_URL, else the default; TASKLANE_TOKEN, else
 * the token `tasklane login` stored for that server.
 */
function clientSetup(url: string | undefined, environment: Environment): ClientSetup {
  const baseUrl = url ?? (environment.env.TASKLANE_URL || DEFAULT_URL)
  let parsed: URL | undefined
  try {
    parsed = new URL(baseUrl)
  } catch {}
  if (parsed === undefined || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    const from = url === undefined ? 'TASKLANE_URL' : '--url'
    throw new UsageError(`${from} must be an http:// or https:// URL, got '${baseUrl}'.`)
  }
  const { fetch, configDir } = environment
  const fromEnv = environment.env.TASKLANE_TOKEN || undefined
  const stored =
    fromEnv === undefined && configDir !== undefined ? storedToken(configDir, baseUrl) : undefined
  const token = fromEnv ?? stored
  const tokenSource: TokenSource =
    fromEnv !== undefined ? 'env' : stored !== undefined ? 'stored' : 'none'
  // The client would refuse it too, but naming its "authorization" header, not the variable.
  const bad = token?.search(NOT_HEADER_TEXT) ?? -1
  if (bad !== -1) {
    const what = tokenSource === 'env' ? 'TASKLANE_TOKEN' : 'The stored token'
    throw new UsageError(
      `${what} must be printable ASCII: it has a line break, control or non-ASCII character at index ${bad}.`,
    )
  }
  const options = { baseUrl, ...(token ? { token } : {}), ...(fetch ? { fetch } : {}) }
  return { options, tokenSource }
}

async function execute(
  invocation: Invocation,
  environment: Environment,
  setup: (made: ClientSetup) => void,
): Promise<number> {
  const { stdout } = environment
  if (invocation.kind === 'version') {
    stdout.write(`${environment.version}\n`)
    return 0
  }
  if (invocation.kind === 'help') {
    const { command } = invocation
    stdout.write(
      command === undefined ? mainHelp(environment.commands ?? COMMANDS) : commandHelp(command),
    )
    return 0
  }
  const made = clientSetup(invocation.url, environment)
  setup(made)
  const { options, tokenSource } = made
  const context: Context = {
    client: createClient(options),
    clientOptions: options,
    tokenSource,
    configDir: environment.configDir,
    stdin: environment.stdin,
    stdout,
    stderr: environment.stderr,
    signal: environment.signal,
  }
  return invocation.command.execute(invocation.values, context)
}

/**
 * Runs `tasklane` with these arguments; resolves to the exit status: 0 on success, 1 on
 * an API or connection error (its message on stderr), 2 on a usage error.
 */
export async function run(environment: Environment): Promise<number> {
  const { stderr } = environment
  let invocation: Invocation | undefined
  let tokenSource: TokenSource = 'none'
  try {
    invocation = parseCommandLine(environment.argv, environment.commands ?? COMMANDS)
    return await execute(invocation, environment, (made) => {
      tokenSource = made.tokenSource
    })
  } catch (error) {
    // Every line below may quote the server or the command line: shown escaped, so that
    // neither can move the cursor, retitle the terminal or clear it.
    if (error instanceof UsageError) {
      const command =
        error.command ?? (invocation?.kind === 'run' ? invocation.command.name : undefined)
      const help = command === undefined ? 'tasklane --help' : `tasklane ${command} --help`
      stderr.write(`tasklane: ${escapeControls(error.message)} See '${help}'.\n`)
      return 2
    }
    if (error instanceof FileError) {
      stderr.write(`tasklane ${error.command}: ${escapeControls(error.message)}\n`)
      return 2
    }
    // Ctrl-C while a request ran: the abort is the user's, not an error to explain.
    if (environment.signal.aborted) return interruptedStatus(environment.signal)
    if (isTasklaneError(error)) {
      stderr.write(`tasklane: ${escapeControls(describeError(error))}\n`)
      const hint = authHint(error, tokenSource) ?? listHint(error)
      if (hint !== undefined) stderr.write(`${hint}\n`)
      return 1
    }
    if (error instanceof CredentialsError) {
      stderr.write(`tasklane: ${escapeControls(error.message)}\n`)
      return 1
    }
    // The client throws these, at once and without a request, for a call it cannot make
    // (a header value fetch cannot send, say): a usage error, told in one line.
    if (error instanceof TypeError || error instanceof RangeError) {
      stderr.write(`tasklane: ${escapeControls(error.message)}\n`)
      return 2
    }
    throw error
  }
}
