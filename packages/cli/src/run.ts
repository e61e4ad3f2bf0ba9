import { type ClientOptions, createClient, isTasklaneError } from '@tasklane/client'
import { type Invocation, parseCommandLine } from './command-line.js'
import { add } from './commands/add.js'
import { exportTasks } from './commands/export.js'
import { get } from './commands/get.js'
import { importTasks } from './commands/import.js'
import { list } from './commands/list.js'
import { watch } from './commands/watch.js'
import type { CommandName } from './commands.js'
import { type Context, interruptedStatus, type Output } from './context.js'
import { describeError } from './describe-error.js'
import { commandHelp, mainHelp } from './help.js'
import { UsageError } from './usage-error.js'

/** Where the server is when neither --url nor TASKLANE_URL says. */
export const DEFAULT_URL = 'http://127.0.0.1:3000'

/** Everything the CLI takes from its process, read once by main.ts. */
export interface Environment {
  readonly argv: readonly string[]
  /** TASKLANE_URL and TASKLANE_TOKEN. */
  readonly env: { readonly TASKLANE_URL?: string; readonly TASKLANE_TOKEN?: string }
  readonly stdout: Output
  readonly stderr: Output
  readonly signal: AbortSignal
  readonly version: string
}

type Command = (
  context: Context,
  args: readonly string[],
  options: Record<string, string | boolean | undefined>,
) => Promise<number>

const RUN: Record<CommandName, Command> = {
  add,
  list,
  get,
  watch,
  export: exportTasks,
  import: importTasks,
}

/** The client's options: --url, else TASKLANE_URL, else the default; TASKLANE_TOKEN. */
function clientOptions(url: string | undefined, environment: Environment): ClientOptions {
  const baseUrl = url ?? (environment.env.TASKLANE_URL || DEFAULT_URL)
  let parsed: URL | undefined
  try {
    parsed = new URL(baseUrl)
  } catch {}
  if (parsed === undefined || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    const from = url === undefined ? 'TASKLANE_URL' : '--url'
    throw new UsageError(`${from} must be an http:// or https:// URL, got '${baseUrl}'`)
  }
  const token = environment.env.TASKLANE_TOKEN
  return { baseUrl, ...(token ? { token } : {}) }
}

async function execute(invocation: Invocation, environment: Environment): Promise<number> {
  const { stdout } = environment
  if (invocation.kind === 'version') {
    stdout.write(`${environment.version}\n`)
    return 0
  }
  if (invocation.kind === 'help') {
    stdout.write(invocation.command === undefined ? mainHelp() : commandHelp(invocation.command))
    return 0
  }
  const options = clientOptions(invocation.url, environment)
  const context: Context = {
    client: createClient(options),
    clientOptions: options,
    stdout,
    stderr: environment.stderr,
    signal: environment.signal,
  }
  return RUN[invocation.command](context, invocation.args, invocation.options)
}

/**
 * Runs `tasklane` with these arguments; resolves to the exit status: 0 on success, 1 on
 * an API or connection error (its message on stderr), 2 on a usage error.
 */
export async function run(environment: Environment): Promise<number> {
  const { stderr } = environment
  let invocation: Invocation | undefined
  try {
    invocation = parseCommandLine(environment.argv)
    return await execute(invocation, environment)
  } catch (error) {
    if (error instanceof UsageError) {
      const command = error.command ?? (invocation?.kind === 'run' ? invocation.command : undefined)
      const help = command === undefined ? 'tasklane --help' : `tasklane ${command} --help`
      stderr.write(`tasklane: ${error.message}. See '${help}'.\n`)
      return 2
    }
    // Ctrl-C while a request ran: the abort is the user's, not an error to explain.
    if (environment.signal.aborted) return interruptedStatus(environment.signal)
    if (isTasklaneError(error)) {
      stderr.write(`tasklane: ${describeError(error)}\n`)
      return 1
    }
    throw error
  }
}
