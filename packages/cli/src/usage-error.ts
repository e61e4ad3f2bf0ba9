/**
 * The command line itself is wrong: an unknown command or option, a missing or malformed
 * argument. The CLI prints the message with a hint to `--help` and exits with status 2.
 */
export class UsageError extends Error {
  override name = 'UsageError'

  constructor(
    message: string,
    /** The command whose help explains the mistake; undefined for the overall help. */
    readonly command?: string,
  ) {
    super(message)
  }
}
