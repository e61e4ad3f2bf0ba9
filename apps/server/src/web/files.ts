import { createHash } from 'node:crypto'
import { readdir, readFile } from 'node:fs/promises'
import { extname, join } from 'node:path'

/** A file of the built page, held in memory: it is small, and never changes while serving. */
export interface WebFile {
  readonly body: Buffer
  readonly contentType: string
  /** A strong validator of the body, for conditional requests. */
  readonly etag: string
}

/** The built page: index.html, and its hashed files by name (`index-B7j13NkJ.css`). */
export interface WebPage {
  readonly index: WebFile
  readonly assets: ReadonlyMap<string, WebFile>
}

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
}

function webFile(name: string, body: Buffer): WebFile {
  const hash = createHash('sha256').update(body).digest('base64url').slice(0, 27)
  return {
    body,
    contentType: CONTENT_TYPES[extname(name)] ?? 'application/octet-stream',
    etag: `"${hash}"`,
  }
}

/**
 * Reads the page that `vite build` wrote into `root` (index.html and assets/); undefined
 * when there is none, so that the server still serves its API and says what is missing.
 */
export async function readWebPage(root: string): Promise<WebPage | undefined> {
  const index = await readFile(join(root, 'index.html')).catch(() => undefined)
  if (index === undefined) return undefined
  const names = await readdir(join(root, 'assets')).catch(() => [])
  const assets = new Map<string, WebFile>()
  for (const name of names) {
    // Gone since the listing: a build replacing the page right now; the next start has it.
    const body = await readFile(join(root, 'assets', name)).catch(() => undefined)
    if (body !== undefined) assets.set(name, webFile(name, body))
  }
  return { index: webFile('index.html', index), assets }
}
