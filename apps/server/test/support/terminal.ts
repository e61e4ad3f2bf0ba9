import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { within } from './processes.js'

const run = promisify(execFile)

/** `'it''s'` for sh: a word the shell passes through unchanged. */
const shellQuote = (word: string) => `'${word.replaceAll("'", "'\\''")}'`

/** A command running in a pseudo-terminal of a tmux server of its own: what a user sees. */
export interface Terminal {
  /** The screen now, its lines with trailing blanks removed (escape sequences left out). */
  screen(): Promise<string[]>
  /** The first screen line matching `pattern`, once there is one. */
  waitForLine(pattern: RegExp, timeoutMs?: number): Promise<string>
  /** Types keys into the terminal, as tmux names them: `C-c` for Ctrl-C. */
  sendKeys(...keys: string[]): Promise<void>
  /** Ends the tmux server, the command with it. */
  close(): Promise<void>
}

/**
 * Starts `args` (the program first) with `env` added to this environment, in a window of
 * `columns` × 50 whose standard streams are a terminal; the window stays after it ends.
 */
export async function startInTerminal(
  args: readonly string[],
  env: Record<string, string>,
  columns = 250,
): Promise<Terminal> {
  const dir = mkdtempSync(join(tmpdir(), 'tasklane-tmux-'))
  const socket = join(dir, 'socket')
  const tmux = (...more: string[]) => run('tmux', ['-S', socket, '-f', '/dev/null', ...more])
  const assignments = Object.entries(env).map(([name, value]) => shellQuote(`${name}=${value}`))
  const command = ['env', ...assignments, ...args.map(shellQuote)].join(' ')
  await tmux(
    'new-session',
    '-d',
    '-s',
    'server',
    '-x',
    String(columns),
    '-y',
    '50',
    `${command}; sleep 600`,
  )
  const screen = async () =>
    (await tmux('capture-pane', '-p', '-t', 'server')).stdout
      .split('\n')
      .map((line) => line.trimEnd())
  return {
    screen,
    async waitForLine(pattern, timeoutMs = 20_000) {
      const found = (async () => {
        for (;;) {
          const line = (await screen()).find((each) => pattern.test(each))
          if (line !== undefined) return line
          await new Promise((resolve) => setTimeout(resolve, 50))
        }
      })()
      return within(found, timeoutMs, `a terminal line matching ${pattern}`)
    },
    async sendKeys(...keys) {
      await tmux('send-keys', '-t', 'server', ...keys)
    },
    async close() {
      await tmux('kill-server').catch(() => {})
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
