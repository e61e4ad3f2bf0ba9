import { addAbortSignal, type Readable } from 'node:stream'
import type { Output } from './context.js'
import { UsageError } from './usage-error.js'

/** The longest line read: far more than any token, far less than a file piped in by mistake. */
const MAX_LENGTH = 64 * 1024

/** The user pressed Ctrl-C at the prompt (which a terminal in raw mode sends as a character). */
export const INTERRUPTED = Symbol('interrupted')

/** A terminal's standard input, as far as the prompt uses it. */
interface TerminalInput extends NodeJS.ReadableStream {
  readonly isTTY: true
  setRawMode(raw: boolean): unknown
}

/** True when `stdin` is a terminal that can be read without echo. */
export function isTerminal(stdin: NodeJS.ReadableStream): stdin is TerminalInput {
  const input = stdin as Partial<TerminalInput>
  return input.isTTY === true && typeof input.setRawMode === 'function'
}

/** The first line of `stdin` (without its line break), or all of it when it has none. */
async function readLine(stdin: NodeJS.ReadableStream, signal: AbortSignal): Promise<string> {
  const decoder = new TextDecoder()
  let text = ''
  // Aborted (SIGINT, SIGTERM): the loop throws and run() tells the interruption.
  const stream = addAbortSignal(signal, stdin as Readable)
  // Leaving the loop (a line read) destroys the stream: nothing else reads it.
  for await (const chunk of stream) {
    text +=
      typeof chunk === 'string' ? chunk : decoder.decode(chunk as Uint8Array, { stream: true })
    const end = text.indexOf('\n')
    if (end !== -1) return text.slice(0, end).replace(/\r$/, '')
    if (text.length > MAX_LENGTH) {
      throw new UsageError(`The token must be one line of at most ${MAX_LENGTH} characters.`)
    }
  }
  return (text + decoder.decode()).replace(/\r$/, '')
}

/**
 * What the user types after `prompt` on a terminal, not shown as it is typed: Enter ends
 * it, Backspace removes a character, Ctrl-C gives up (INTERRUPTED), Ctrl-D on an empty
 * line gives nothing.
 */
function readHidden(
  stdin: TerminalInput,
  stderr: Output,
  prompt: string,
): Promise<string | typeof INTERRUPTED> {
  stderr.write(prompt)
  stdin.setRawMode(true)
  stdin.setEncoding('utf8')
  stdin.resume()
  return new Promise((resolve) => {
    let typed = ''
    const finish = (value: string | typeof INTERRUPTED) => {
      stdin.removeListener('data', onData)
      stdin.setRawMode(false)
      stdin.pause()
      stderr.write('\n')
      resolve(value)
    }
    const onData = (chunk: string) => {
      for (const character of chunk) {
        if (character === '\r' || character === '\n') return finish(typed)
        if (character === '\u0003') return finish(INTERRUPTED)
        if (character === '\u0004' && typed === '') return finish('')
        if (character === '\u007f' || character === '\b') typed = typed.slice(0, -1)
        // Other control characters (arrows' escapes and the like) are no part of a token.
        else if (character >= ' ') typed += character
      }
    }
    stdin.on('data', onData)
  })
}

/**
 * A secret from standard input: on a terminal, typed after `prompt` (on stderr) without
 * echo; otherwise the first line piped in (`tasklane login < token.txt`). Spaces around
 * it are dropped.
 */
export async function readSecret(
  stdin: NodeJS.ReadableStream,
  stderr: Output,
  prompt: string,
  signal: AbortSignal,
): Promise<string | typeof INTERRUPTED> {
  const read = isTerminal(stdin)
    ? await readHidden(stdin, stderr, prompt)
    : await readLine(stdin, signal)
  return read === INTERRUPTED ? read : read.trim()
}
