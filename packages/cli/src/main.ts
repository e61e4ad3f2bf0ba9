#!/usr/bin/env node
// The `tasklane` command: reads its process once (arguments, environment, streams,
// signals) and hands them to run().
import manifest from '../package.json' with { type: 'json' }
import { signalStatus } from './context.js'
import { configDirOf } from './credentials.js'
import { run } from './run.js'

const controller = new AbortController()
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    // The first signal lets the command end cleanly (watch stops, import finishes the
    // creates in flight); a second one ends the process at once.
    if (controller.signal.aborted) process.exit(signalStatus(signal))
    controller.abort(signal)
  })
}
// A reader that went away (`tasklane export | head`) is no error of the command.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0)
  throw error
})

process.exitCode = await run({
  argv: process.argv.slice(2),
  env: { TASKLANE_URL: process.env.TASKLANE_URL, TASKLANE_TOKEN: process.env.TASKLANE_TOKEN },
  // Read on first use only: only `import -` and `login` read standard input.
  get stdin() {
    return process.stdin
  },
  stdout: process.stdout,
  stderr: process.stderr,
  signal: controller.signal,
  version: manifest.version,
  configDir: configDirOf(process.env),
})
