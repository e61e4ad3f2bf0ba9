import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { SQLite, type SQLiteDatabase } from './sqlite-driver.js'

/**
 * Opens an SQLite connection as every connection of the server needs it: WAL, and
 * synchronous=FULL so that a commit reaches the disk before its 201 is sent. Refuses to
 * go on without them. Used by the reading connection and by the writer thread alike;
 * `mustExist` for connections opened later, which must never create a new, empty file.
 */
export function openConnection(
  filename: string,
  { mustExist = false }: { mustExist?: boolean } = {},
): SQLiteDatabase {
  if (filename !== ':memory:' && !mustExist) mkdirSync(dirname(filename), { recursive: true })
  const sqlite = new SQLite(filename, { fileMustExist: mustExist })
  try {
    sqlite.pragma('journal_mode = WAL')
    sqlite.pragma('synchronous = FULL')
    sqlite.pragma('busy_timeout = 5000')
    const journal = sqlite.pragma('journal_mode', { simple: true })
    const synchronous = sqlite.pragma('synchronous', { simple: true })
    if ((filename !== ':memory:' && journal !== 'wal') || synchronous !== 2) {
      throw new Error(
        `SQLite did not accept WAL with synchronous=FULL (got journal_mode=${journal}, synchronous=${synchronous}).`,
      )
    }
    return sqlite
  } catch (error) {
    sqlite.close()
    throw error
  }
}
