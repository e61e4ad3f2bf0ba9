import { execFile } from 'node:child_process'

/** How a command run to its end finished: its exit code (null if a signal ended it) and output. */
export interface Outcome {
  code: number | null
  stdout: string
  stderr: string
}

export interface RunOptions {
  readonly cwd?: string
  /** The whole environment of the command (default: this process's). */
  readonly env?: NodeJS.ProcessEnv
  readonly timeoutMs?: number
}

/**
 * Runs `file` with `args` to its end. Never rejects, whatever the command does, so that a
 * test can assert its exit code and output (up to 256 MiB of each).
 *
 * @example
 * const { code, stdout } = await runToEnd('npm', ['--version'])
 */
export function runToEnd(file: string, args: readonly string[], options: RunOptions = {}) {
  return new Promise<Outcome>((resolve) => {
    execFile(
      file,
      args,
      {
        cwd: options.cwd,
        env: options.env ?? process.env,
        maxBuffer: 256 * 1024 * 1024,
        timeout: options.timeoutMs ?? 0,
      },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null
        resolve({ code, stdout, stderr })
      },
    )
  })
}
