// The release command: `pnpm release [--registry <url>] [--dry-run]` at the repository root.
//
// Packs every publishable package (its prepack script builds it), checks each tarball as a
// consumer would install it (check-tarball.ts), and only when every one passes publishes
// those very tarballs with npm, dependencies first. A version already on the registry is
// skipped, so a release that stopped half-way can be run again. Versions and changelogs
// come before, from Changesets: `pnpm changeset version`.
import { execFile } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs, promisify } from 'node:util'
import { pack, publishablePackages } from '@tasklane/testing/packages'
import { checkTarball } from './check-tarball.js'

const run = promisify(execFile)

const { values } = parseArgs({
  options: { registry: { type: 'string' }, 'dry-run': { type: 'boolean' } },
  strict: true,
})
const registry = values.registry === undefined ? [] : ['--registry', values.registry]

/** True when this exact version is on the registry already. */
async function published(name: string, version: string): Promise<boolean> {
  try {
    const { stdout } = await run('npm', ['view', `${name}@${version}`, 'version', ...registry])
    return stdout.trim() === version
  } catch (error) {
    if (/E404|404 Not Found/.test(String((error as { stderr?: string }).stderr))) return false
    throw error
  }
}

const packages = publishablePackages()
const out = await mkdtemp(join(tmpdir(), 'tasklane-release-'))
try {
  const tarballs: string[] = []
  let failed = false
  for (const p of packages) {
    const tarball = await pack(p, 'pnpm', out)
    const { problems } = await checkTarball(tarball)
    console.log(`${p.name}@${p.version}: ${problems.length === 0 ? 'ok' : 'NOT publishable'}`)
    for (const problem of problems) console.log(`  ${problem}`)
    failed ||= problems.length > 0
    tarballs.push(tarball)
  }
  if (failed) {
    console.error('Nothing was published: fix the problems above first.')
    process.exitCode = 1
  } else {
    for (const [i, p] of packages.entries()) {
      if (await published(p.name, p.version)) {
        console.log(`${p.name}@${p.version} is on the registry already: skipped`)
        continue
      }
      const dryRun = values['dry-run'] ? ['--dry-run'] : []
      await run('npm', [
        'publish',
        tarballs[i] as string,
        '--access',
        'public',
        ...registry,
        ...dryRun,
      ])
      console.log(`${p.name}@${p.version} published${values['dry-run'] ? ' (dry run)' : ''}`)
    }
  }
} finally {
  await rm(out, { recursive: true, force: true })
}
