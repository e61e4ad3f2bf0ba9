/**
 * A file named on the command line cannot be read (missing, a directory, not allowed):
 * exit status 2, as a usage error, but told as `tasklane import: no such file: <path>`, on
 * one line without the hint to --help, since the command line itself was right.
 */
export class FileError extends Error {
  override name = 'FileError'

  constructor(
    /** The command that was to read it. */
    readonly command: string,
    /** What is wrong, as a few words: `no such file`. */
    readonly problem: string,
    readonly path: string,
  ) {
    super(`${problem}: ${path}`)
  }
}

/** The few words that say why `path` could not be opened, from Node's error code. */
const PROBLEMS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file',
  ENOTDIR: 'no such file',
  EISDIR: 'not a file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
}

/** The FileError for a failure to open `path`. */
export function fileErrorOf(command: string, path: string, error: NodeJS.ErrnoException) {
  const problem = PROBLEMS[error.code ?? ''] ?? `cannot read (${error.code ?? error.message})`
  return new FileError(command, problem, path)
}
