import { accessSync, constants, existsSync, rmSync } from 'node:fs'
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

/**
 * What opening `filename` is about to create, to take away again if the start fails (the
 * port is taken): the outermost of its directories that does not exist yet, or else the
 * file and those of its WAL, shared-memory and journal files that do not exist; nothing
 * when the file is there already.
 */
export function newDatabasePaths(filename: string): string[] {
  if (filename === ':memory:' || existsSync(filename)) return []
  let outermost: string | undefined
  for (let dir = dirname(filename); !existsSync(dir) && dirname(dir) !== dir; dir = dirname(dir)) {
    outermost = dir
  }
  if (outermost !== undefined) return [outermost]
  return ['', '-wal', '-shm', '-journal']
    .map((suffix) => `${filename}${suffix}`)
    .filter((path) => !existsSync(path))
}

/** Removes what `newDatabasePaths` named (and the start made since). */
export function removeNewDatabase(paths: readonly string[]): void {
  for (const path of paths) rmSync(path, { recursive: true, force: true })
}
