// The server's source tree as docs/layout.md draws it: rooms stacked in layers, each file
// importing only from its own room or from rooms below it, none over 300 lines, and no two
// files with the same name (a file's name alone says which room it is in).
import { readdirSync, readFileSync } from 'node:fs'
import { basename, dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const SRC = resolve(import.meta.dirname, '../src')

/** The rooms of the files at the top of src/. */
const TOP_FILES: Record<string, string> = {
  'main.ts': 'process',
  'tracing.ts': 'process',
  'database-file.ts': 'process',
  'log-destination.ts': 'process',
  'index.ts': 'composition',
  'app.ts': 'composition',
  'app-plugins.ts': 'composition',
  'services.ts': 'composition',
  'version.ts': 'version',
}

/** Each room's layer: a file may import from its own room and from lower layers only. */
const LAYERS: Record<string, number> = {
  process: 10,
  composition: 9,
  routes: 8,
  plugins: 7,
  http: 6,
  web: 6,
  settings: 5,
  tasks: 4,
  lists: 4,
  history: 4,
  webhooks: 4,
  access: 3,
  storage: 2,
  domain: 1,
  types: 1,
  version: 1,
}

/** Every source file under `dir`, as paths relative to src/. */
function sources(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sources(path)
    return /\.(ts|mjs)$/.test(entry.name) ? [relative(SRC, path)] : []
  })
}

/** The room of a file: its top folder under src/, or the file itself at the top. */
function roomOf(file: string): string {
  const top = file.split('/')[0] as string
  return TOP_FILES[top] ?? top
}

/** The files each relative import of `file` names, as paths relative to src/. */
function importsOf(file: string): string[] {
  const text = readFileSync(join(SRC, file), 'utf8')
  const specifiers = [...text.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)]
  return specifiers.map(([, specifier]) =>
    relative(SRC, resolve(SRC, dirname(file), (specifier as string).replace(/\.js$/, '.ts'))),
  )
}

const files = sources()

describe("the server's source tree", () => {
  it('has a layer for every room', () => {
    expect(files.map(roomOf).filter((room) => LAYERS[room] === undefined)).toEqual([])
  })

  it('imports only from the same room or from a lower layer', () => {
    const upward = files.flatMap((file) =>
      importsOf(file)
        .filter((target) => !target.startsWith('..'))
        .filter((target) => roomOf(target) !== roomOf(file))
        .filter((target) => (LAYERS[roomOf(target)] ?? 0) >= (LAYERS[roomOf(file)] ?? 0))
        .map((target) => `${file} → ${target}`),
    )
    expect(upward).toEqual([])
  })

  it('knows HTTP only in its HTTP layers: no service, storage or setting imports Fastify', () => {
    const belowHttp = files.filter((file) => (LAYERS[roomOf(file)] ?? 0) < (LAYERS.http ?? 0))
    const knowing = belowHttp.filter((file) =>
      /from\s+['"](fastify|@fastify\/[^'"]+)['"]|\bFastify(Reply|Request|Instance)\b/.test(
        readFileSync(join(SRC, file), 'utf8'),
      ),
    )
    // Type declarations for a Fastify plugin's untyped module are not code that runs.
    expect(knowing.filter((file) => !file.endsWith('.d.ts'))).toEqual([])
  })

  it('has no file over 300 lines', () => {
    const long = files.filter(
      (file) => readFileSync(join(SRC, file), 'utf8').split('\n').length > 301,
    )
    expect(long).toEqual([])
  })

  it('has no two files with the same name', () => {
    const names = files.map((file) => basename(file))
    expect(names.filter((name, i) => names.indexOf(name) !== i)).toEqual([])
  })
})
