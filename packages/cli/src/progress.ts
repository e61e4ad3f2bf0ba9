import type { Output } from './context.js'
import { formatNumber } from './format/numbers.js'

/** How often the line is redrawn. */
const INTERVAL_MS = 200

/** A progress line on stderr, redrawn in place; nothing at all when stderr is no terminal. */
export interface Progress {
  /** Counts one more item. */
  tick(): void
  /** Writes a line above the progress line (a bad line's report), which is then redrawn. */
  note(text: string): void
  /** Draws the line a last time and ends it with a newline. */
  done(): void
}

/**
 * `Exported 12,345 tasks · 3,456/s`, redrawn every 200 ms on a terminal; `fraction`, when
 * given, adds how far through the input the command is: `Imported … · 45%`.
 */
export function startProgress(
  stderr: Output,
  verb: string,
  fraction?: () => number,
  now: () => number = Date.now,
): Progress {
  const started = now()
  let count = 0
  if (!stderr.isTTY) {
    return {
      tick: () => {},
      note: (text) => stderr.write(text),
      done: () => {},
    }
  }
  const draw = () => {
    const seconds = Math.max(0.001, (now() - started) / 1000)
    const rate = Math.round(count / seconds)
    const share = fraction === undefined ? '' : ` · ${Math.floor(fraction() * 100)}%`
    // \r and "erase line": the line is rewritten where it stands.
    stderr.write(
      `\r\x1b[2K${verb} ${formatNumber(count)} ${count === 1 ? 'task' : 'tasks'} · ${formatNumber(rate)}/s${share}`,
    )
  }
  const timer = setInterval(draw, INTERVAL_MS)
  timer.unref()
  return {
    tick: () => {
      count++
    },
    note: (text) => {
      stderr.write(`\r\x1b[2K${text}`)
      draw()
    },
    done: () => {
      clearInterval(timer)
      draw()
      stderr.write('\n')
    },
  }
}
