import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { type Manifest, workspaceRanges } from '@tasklane/testing/packages'
import { publint } from 'publint'
import { formatMessage } from 'publint/utils'

const run = promisify(execFile)
const ATTW = resolve(import.meta.dirname, '../node_modules/.bin/attw')

/** What a tarball holds and what is wrong with it as an installed package; empty when nothing. */
export interface TarballReport {
  readonly manifest: Manifest
  /** Paths inside the package, sorted (`dist/index.js`, `package.json`, …). */
  readonly files: string[]
  readonly problems: string[]
}

/**
 * Every file an `exports` field names, under any condition, as a path inside the package
 * (`dist/index.js`); patterns (`./dist/*`) are left out.
 */
export function exportedPaths(exports: unknown): string[] {
  if (typeof exports === 'string') {
    return exports.includes('*') ? [] : [exports.replace(/^\.\//, '')]
  }
  if (exports === null || typeof exports !== 'object') return []
  return Object.values(exports).flatMap(exportedPaths)
}

/**
 * Checks a tarball as npm would install it: no `workspace:` range, no `exports` target
 * missing from it (under any condition), no publint message
 * (suggestions included, strict), and, for a package with type declarations, no problem
 * `attw` finds under any module resolution.
 */
export async function checkTarball(tarball: string): Promise<TarballReport> {
  const dir = await mkdtemp(join(tmpdir(), 'tasklane-tarball-'))
  try {
    await run('tar', ['xzf', tarball, '-C', dir])
    const root = join(dir, 'package')
    const { stdout } = await run('tar', ['tzf', tarball])
    const files = stdout
      .trim()
      .split('\n')
      .map((line) => line.replace(/^package\//, ''))
      .sort()
    const manifest = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as Manifest
    const problems = workspaceRanges(manifest).map((range) => `workspace range: ${range}`)
    for (const path of exportedPaths(manifest.exports)) {
      if (!files.includes(path)) problems.push(`exports names ${path}, which is not in the tarball`)
    }

    const lint = await publint({ pkgDir: root, level: 'suggestion', strict: true })
    for (const message of lint.messages) {
      problems.push(`publint ${message.code}: ${formatMessage(message, manifest) ?? ''}`)
    }

    if (manifest.types !== undefined) {
      const { stdout: json } = await run(ATTW, [tarball, '--format', 'json'], {
        maxBuffer: 64 * 1024 * 1024,
      }).catch((error: { stdout: string }) => error)
      const report = JSON.parse(json) as { analysis: { problems: { kind: string }[] } }
      for (const problem of report.analysis.problems) {
        problems.push(`attw ${problem.kind}: ${JSON.stringify(problem)}`)
      }
    }
    return { manifest, files, problems }
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}
