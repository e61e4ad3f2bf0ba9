import { statSync } from 'node:fs'
import { DATABASE_FILE_REPLACED } from '../unavailable.js'

/** Which file a path names: its device and inode, as text (they may exceed 2^53). */
export interface FileIdentity {
  readonly dev: string
  readonly ino: string
}

/** The identity of the file at `path` now, or undefined when nothing is there. */
export function fileIdentity(path: string): FileIdentity | undefined {
  const stats = statSync(path, { bigint: true, throwIfNoEntry: false })
  return stats && { dev: String(stats.dev), ino: String(stats.ino) }
}

/**
 * Throws unless `path` still names the file that was opened as `opened`. A database file
 * removed (or replaced) while open can still be written, but nothing written there
 * survives a restart: such a write must never be acknowledged.
 */
export function assertSameFile(path: string, opened: FileIdentity): void {
  const now = fileIdentity(path)
  if (now?.dev === opened.dev && now.ino === opened.ino) return
  throw Object.assign(
    new Error(
      now === undefined
        ? `The database file ${path} no longer exists; it was removed while open.`
        : `The database file ${path} is no longer the file that was opened; it was replaced.`,
    ),
    { code: DATABASE_FILE_REPLACED },
  )
}
