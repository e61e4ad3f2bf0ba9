import type { ClientOptions, TasklaneClient } from '@tasklane/client'

/** A stream the CLI writes to, with what it knows of the terminal behind it. */
export interface Output {
  write(text: string): boolean
  once(event: 'drain', listener: () => void): unknown
  /** True when the stream is a terminal. */
  readonly isTTY?: boolean
  /** The terminal's width, when it is one. */
  readonly columns?: number
}

/**
 * Where the client's token came from: TASKLANE_TOKEN (`env`), the one `tasklane login`
 * stored for the server (`stored`), or nowhere (`none`).
 */
export type TokenSource = 'env' | 'stored' | 'none'

/** What every command is given: read once in main.ts, nothing else reads the environment. */
export interface Context {
  /** A client for the server of `--url` or TASKLANE_URL, with TASKLANE_TOKEN. */
  readonly client: TasklaneClient
  /** The options that client was made with, for a command that needs its own. */
  readonly clientOptions: ClientOptions
  /** Where the client's token came from. */
  readonly tokenSource: TokenSource
  /** Where `tasklane login` stores tokens; undefined: nowhere (no HOME). */
  readonly configDir?: string | undefined
  /** Standard input: `import -` reads it. */
  readonly stdin: NodeJS.ReadableStream
  readonly stdout: Output
  readonly stderr: Output
  /** Aborts on the first SIGINT or SIGTERM. */
  readonly signal: AbortSignal
}

/** Writes `text` and resolves once the stream can take more (backpressure). */
export function write(output: Output, text: string): Promise<void> | undefined {
  if (output.write(text)) return undefined
  return new Promise((resolve) => output.once('drain', resolve))
}

/** Exit statuses after SIGINT and SIGTERM, as a shell reports them (128 + the signal). */
const INTERRUPTED: Readonly<Record<string, number>> = { SIGINT: 130, SIGTERM: 143 }

/** The exit status after the signal named `name` (`SIGINT`, `SIGTERM`); 130 for any other. */
export function signalStatus(name: string): number {
  return INTERRUPTED[name] ?? 130
}

/** The exit status of a command stopped by the signal that aborted `signal`. */
export function interruptedStatus(signal: AbortSignal): number {
  return signalStatus(String(signal.reason))
}
