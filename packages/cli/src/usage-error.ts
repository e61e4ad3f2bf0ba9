/**
 * The command line itself is wrong: an unknown command or option, a missing or malformed
 * argument. Its message is one or two full sentences; the CLI prints it with a hint to
 * `--help` and exits with status 2.
 */
export class UsageError extends Error {
  override name = 'UsageError'

  constructor(
    message: string,
    /** The command whose help explains the mistake; undefined for the overall help. */
    readonly command?: string,
  ) {
    // A message that forgot its full stop still ends a sentence: "… See --help." follows.
    super(/[.!?]$/.test(message) ? message : `${message}.`)
  }
}
