import { createRequire } from 'node:module'
import type BetterSqlite3 from 'better-sqlite3'

const require = createRequire(import.meta.url)

/** Node.js's major version: the driver depends on it. */
const NODE_MAJOR = Number(process.versions.node.split('.')[0])

function optional(name: string): typeof BetterSqlite3 | undefined {
  try {
    return require(name) as typeof BetterSqlite3
  } catch {
    return undefined
  }
}

/**
 * better-sqlite3 for the Node.js that runs: 13 from Node 22 on (Node-API, binaries shipped
 * in the package: nothing to compile), installed as the optional dependency
 * `better-sqlite3-napi`; 12 on Node 20, which 13 does not support (12 compiles from source
 * where no prebuilt binary can be fetched). 12 must not run on Node 24: its objects, freed
 * by the garbage collector after Node has let go of their environment, abort the process
 * (`RemoveEnvironmentCleanupHook`, WiseLibs/better-sqlite3#1515). Same API either way.
 */
function loadDriver(): typeof BetterSqlite3 {
  if (NODE_MAJOR < 22) return require('better-sqlite3') as typeof BetterSqlite3
  const napi = optional('better-sqlite3-napi')
  if (napi) return napi
  if (NODE_MAJOR >= 24) {
    throw new Error(
      `On Node ${process.versions.node} tasklane needs better-sqlite3 13, its optional dependency better-sqlite3-napi, which is not installed; reinstall without --no-optional (or run Node 20 or 22).`,
    )
  }
  return require('better-sqlite3') as typeof BetterSqlite3
}

/** The better-sqlite3 Database class (12 or 13, as this Node.js needs). */
export const SQLite: typeof BetterSqlite3 = loadDriver()

/** An open better-sqlite3 connection. */
export type SQLiteDatabase = BetterSqlite3.Database
