// The repo's rule for every package and app: no source file under apps/*/src or
// packages/*/src over 300 lines (layers.test.ts checks the server's rooms besides). A new
// package is covered as soon as it has a src/ folder.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = resolve(import.meta.dirname, '../../..')
const MAX_LINES = 300

/** The src/ folder of every app and package, relative to the repo's root. */
function sourceFolders(): string[] {
  return ['apps', 'packages'].flatMap((group) =>
    readdirSync(join(ROOT, group), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && existsSync(join(ROOT, group, entry.name, 'src')))
      .map((entry) => `${group}/${entry.name}/src`),
  )
}

/** Every source file under `dir` (TypeScript and JavaScript), as paths relative to the root. */
function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sources(path)
    return /\.(ts|tsx|mts|cts|js|mjs|cjs)$/.test(entry.name) ? [path] : []
  })
}

/** The lines of `file`: a final newline ends the last line, it does not start another. */
function lineCount(file: string): number {
  const text = readFileSync(join(ROOT, file), 'utf8')
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0)
}

const folders = sourceFolders()

describe('the source files of every app and package', () => {
  it('are found in each of them', () => {
    for (const folder of [
      'apps/server/src',
      'apps/web/src',
      'packages/cli/src',
      'packages/client/src',
      'packages/contract/src',
    ]) {
      expect(folders).toContain(folder)
      expect(sources(folder).length, folder).toBeGreaterThan(0)
    }
  })

  it.each(folders)('has no file over 300 lines in %s', (folder) => {
    const long = sources(folder)
      .map((file) => ({ file, lines: lineCount(file) }))
      .filter(({ lines }) => lines > MAX_LINES)
      .map(({ file, lines }) => `${file}: ${lines} lines`)
    expect(long).toEqual([])
  })
})
