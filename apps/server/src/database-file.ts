import { accessSync, constants, existsSync } from 'node:fs'
import { dirname } from 'node:path'

/** The nearest directory of `path` that exists (the server creates the missing ones). */
function nearestDirectory(path: string): string {
  let dir = dirname(path)
  while (!existsSync(dir) && dirname(dir) !== dir) dir = dirname(dir)
  return dir
}

/** The error `access(path, W_OK)` fails with, or undefined when it may be written. */
function writeError(path: string): NodeJS.ErrnoException | undefined {
  try {
    accessSync(path, constants.W_OK)
    return undefined
  } catch (error) {
    return error as NodeJS.ErrnoException
  }
}

/**
 * Why the server could not write the SQLite database `filename`, or undefined when it
 * can: the file, its WAL and shared-memory files, and its directory (where SQLite
 * creates them) must all be writable. Opened read-only, SQLite serves reads and fails
 * every write; the server refuses to start instead, with this one line.
 */
export function unwritableDatabase(filename: string): Error | undefined {
  if (filename === ':memory:') return undefined
  const files = [filename, `${filename}-wal`, `${filename}-shm`].filter((file) => existsSync(file))
  for (const path of [...files, nearestDirectory(filename)]) {
    const error = writeError(path)
    if (error === undefined) continue
    const what =
      path === filename ? 'the file' : files.includes(path) ? path : `its directory ${path}`
    return Object.assign(new Error(`${what} cannot be written`), {
      code: error.code,
    })
  }
  return undefined
}
