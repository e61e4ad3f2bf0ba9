import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { waitFor } from './cli.js'

const run = promisify(execFile)

/** A pseudo-terminal of a tmux server of its own (its own socket): what a user's terminal shows. */
export interface Terminal {
  /**
   * Runs `command` (a shell command line) in a new window of `columns`×`rows` and resolves
   * with the screen once it has ended: its lines, trailing blanks removed, then `$?`.
   */
  run(
    command: string,
    columns?: number,
    rows?: number,
  ): Promise<{ screen: string[]; status: number }>
  close(): Promise<void>
}

const DONE = 'TASKLANE-TEST-EXIT='

/** `'it''s'` for sh: a word the shell passes through unchanged. */
export function shellQuote(word: string): string {
  return `'${word.replaceAll("'", "'\\''")}'`
}

/**
 * Starts nothing yet: each `run` opens a session on this terminal's own tmux socket, the
 * first one starting its server; `close` ends the server and every session with it.
 */
export function openTerminal(): Terminal {
  const dir = mkdtempSync(join(tmpdir(), 'tasklane-tmux-'))
  const socket = join(dir, 'socket')
  const tmux = (...args: string[]) => run('tmux', ['-S', socket, '-f', '/dev/null', ...args])
  let sessions = 0
  return {
    async run(command, columns = 120, rows = 40) {
      const session = `s${++sessions}`
      // The window stays open after the command, so that its last screen can be read.
      await tmux(
        'new-session',
        '-d',
        '-s',
        session,
        '-x',
        String(columns),
        '-y',
        String(rows),
        `${command}; echo ${DONE}$?; sleep 600`,
      )
      let screen: string[] = []
      await waitFor(
        `${command} to end in tmux`,
        async () => {
          const { stdout } = await tmux('capture-pane', '-p', '-t', session)
          screen = stdout.split('\n').map((line) => line.trimEnd())
          return screen.some((line) => line.startsWith(DONE))
        },
        60_000,
      )
      // The session stays until close(): a tmux server exits with its last session, and the
      // next run's new-session could reach it while it exits ("server exited unexpectedly").
      const end = screen.findIndex((line) => line.startsWith(DONE))
      return {
        screen: screen.slice(0, end),
        status: Number(screen[end]?.slice(DONE.length)),
      }
    },
    async close() {
      await tmux('kill-server').catch(() => {})
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
