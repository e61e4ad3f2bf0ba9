import { execFile } from 'node:child_process'
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import type { TestProject } from 'vitest/node'

const run = promisify(execFile)
const ROOT = resolve(import.meta.dirname, '../../../..')
const PNPM = ['--yes', 'pnpm@10.34.9']

declare module 'vitest' {
  export interface ProvidedContext {
    /** Absolute paths of the packed tarballs, as `pnpm publish` would upload them. */
    tarballs: { contract: string; client: string }
  }
}

/** Builds @tasklane/contract and @tasklane/client with tsup, then packs both with pnpm. */
export default async function setup(project: TestProject) {
  const out = await mkdtemp(join(tmpdir(), 'tasklane-packs-'))
  const packages = ['contract', 'client'] as const
  for (const name of packages) {
    await run(join(ROOT, 'packages', name, 'node_modules/.bin/tsup'), [], {
      cwd: join(ROOT, 'packages', name),
      env: { ...process.env, NODE_ENV: 'production' },
    })
  }
  // `pnpm pack` applies publishConfig (dist exports) and rewrites workspace: ranges.
  await Promise.all(
    packages.map((name) =>
      run('npx', [...PNPM, 'pack', '--pack-destination', out], {
        cwd: join(ROOT, 'packages', name),
      }),
    ),
  )
  const files = await readdir(out)
  const find = (name: string) => {
    const file = files.find((f) => f.startsWith(`tasklane-${name}-`) && f.endsWith('.tgz'))
    if (file === undefined) throw new Error(`pnpm pack made no tarball for ${name}: ${files}`)
    return join(out, file)
  }
  project.provide('tarballs', { contract: find('contract'), client: find('client') })
  return () => rm(out, { recursive: true, force: true })
}
