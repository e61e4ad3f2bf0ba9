import { execFile } from 'node:child_process'
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { pack, workspacePackages } from '@tasklane/testing/packages'
import type { TestProject } from 'vitest/node'

const run = promisify(execFile)

declare module 'vitest' {
  export interface ProvidedContext {
    /** Absolute paths of the packed tarballs, as the release would upload them. */
    tarballs: { contract: string; client: string }
    /** The client's tarball unpacked: its dist/ is what an app installs. */
    clientPackage: string
  }
}

/**
 * Packs @tasklane/contract and @tasklane/client once (their prepack builds them) and
 * unpacks the client: the package tests check what would be published, and a copy taken
 * now cannot change under them when another project rebuilds dist/ meanwhile.
 */
export default async function setup(project: TestProject) {
  const out = await mkdtemp(join(tmpdir(), 'tasklane-packs-'))
  const find = (name: string) => {
    const found = workspacePackages().find((p) => p.name === name)
    if (found === undefined) throw new Error(`${name} is not in the workspace`)
    return found
  }
  const contract = await pack(find('@tasklane/contract'), 'pnpm', out)
  const client = await pack(find('@tasklane/client'), 'pnpm', out)
  const unpacked = join(out, 'client')
  await mkdir(unpacked)
  await run('tar', ['xzf', client, '-C', unpacked])
  project.provide('tarballs', { contract, client })
  project.provide('clientPackage', join(unpacked, 'package'))
  return () => rm(out, { recursive: true, force: true })
}
