// The tokens `tasklane login` stores: one a server, in credentials.json of the user's
// config directory ($XDG_CONFIG_HOME/tasklane, else ~/.config/tasklane), the directory
// mode 0700 and the file 0600. TASKLANE_TOKEN wins over a stored token.
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { isAbsolute, join } from 'node:path'

/** The file of stored tokens, in the config directory. */
const FILE = 'credentials.json'

/** What credentials.json holds: each server's token, by the server's URL (serverKey). */
interface Stored {
  readonly tokens: Readonly<Record<string, string>>
}

/** The stored tokens cannot be read: told on one line, exit status 1. */
export class CredentialsError extends Error {
  override name = 'CredentialsError'
}

/**
 * The config directory of tasklane for these variables: $XDG_CONFIG_HOME/tasklane (an
 * absolute path only, as the XDG spec says), else $HOME/.config/tasklane; undefined
 * without either.
 */
export function configDirOf(env: {
  readonly XDG_CONFIG_HOME?: string
  readonly HOME?: string
}): string | undefined {
  const xdg = env.XDG_CONFIG_HOME
  if (xdg && isAbsolute(xdg)) return join(xdg, 'tasklane')
  return env.HOME ? join(env.HOME, '.config', 'tasklane') : undefined
}

/** The path of the stored tokens in `dir`. */
export function credentialsPath(dir: string): string {
  return join(dir, FILE)
}

/**
 * The key of a server among the stored tokens: its URL without query, fragment or
 * trailing slash (`http://127.0.0.1:3000`, `https://example.com/tasklane`), so that
 * `http://127.0.0.1:3000/` and `http://127.0.0.1:3000` share one token.
 */
export function serverKey(baseUrl: string): string {
  const url = new URL(baseUrl)
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`
}

/** The stored tokens in `dir`; none when there is no file. */
function readStored(dir: string): Stored {
  const path = credentialsPath(dir)
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { tokens: {} }
    throw new CredentialsError(
      `cannot read the stored tokens in ${path} (${(error as NodeJS.ErrnoException).code ?? error}).`,
    )
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {}
  const tokens = (parsed as { tokens?: unknown } | undefined)?.tokens
  const valid =
    typeof tokens === 'object' &&
    tokens !== null &&
    !Array.isArray(tokens) &&
    Object.values(tokens).every((token) => typeof token === 'string')
  if (!valid) {
    throw new CredentialsError(
      `${path} is not a file of stored tokens: delete it, then run 'tasklane login' again.`,
    )
  }
  return { tokens: tokens as Record<string, string> }
}

/** The token stored for the server at `baseUrl`, if any. */
export function storedToken(dir: string, baseUrl: string): string | undefined {
  const { tokens } = readStored(dir)
  const key = serverKey(baseUrl)
  return Object.hasOwn(tokens, key) ? tokens[key] : undefined
}

/**
 * Writes `stored` to `dir`: the directory made mode 0700, the file written whole to a
 * temporary file of mode 0600 and renamed over the old one (never a half-written file,
 * never one others can read); no file when no token is left.
 */
function writeStored(dir: string, stored: Stored): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  chmodSync(dir, 0o700)
  const path = credentialsPath(dir)
  if (Object.keys(stored.tokens).length === 0) {
    rmSync(path, { force: true })
    return
  }
  const temporary = `${path}.${process.pid}.tmp`
  try {
    writeFileSync(temporary, `${JSON.stringify(stored, null, 2)}\n`, { mode: 0o600, flag: 'wx' })
    // The mode of a new file is narrowed by the umask only: 0600 at most, made exact.
    chmodSync(temporary, 0o600)
    renameSync(temporary, path)
  } catch (error) {
    rmSync(temporary, { force: true })
    throw error
  }
}

/** Stores `token` for the server at `baseUrl`, replacing any earlier one; the file's path. */
export function storeToken(dir: string, baseUrl: string, token: string): string {
  const { tokens } = readStored(dir)
  writeStored(dir, { tokens: { ...tokens, [serverKey(baseUrl)]: token } })
  return credentialsPath(dir)
}

/** Removes the token stored for the server at `baseUrl`; false when there was none. */
export function removeToken(dir: string, baseUrl: string): boolean {
  const { tokens } = readStored(dir)
  const key = serverKey(baseUrl)
  if (!Object.hasOwn(tokens, key)) return false
  const { [key]: _removed, ...others } = tokens
  writeStored(dir, { tokens: others })
  return true
}
