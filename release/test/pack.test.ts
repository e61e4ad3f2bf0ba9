import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { envName, SettingsSchema } from '@tasklane/server'
import {
  type PackTool,
  pack,
  publishablePackages,
  type WorkspacePackage,
} from '@tasklane/testing/packages'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkTarball, type TarballReport } from '../src/check-tarball.js'

const run = promisify(execFile)

const TOOLS: PackTool[] = ['npm', 'pnpm']
const packages = publishablePackages()

/** What each tool packed: the tarball and its report, by package name. */
const packed: Record<PackTool, Map<string, { tarball: string; report: TarballReport }>> = {
  npm: new Map(),
  pnpm: new Map(),
}

let dir: string

/** An empty project outside the repository with these tarballs installed by npm. */
async function consumer(tool: PackTool): Promise<string> {
  const project = join(dir, `consumer-${tool}`)
  await mkdir(project)
  await writeFile(
    join(project, 'package.json'),
    JSON.stringify({ name: 'consumer', private: true, version: '0.0.0' }),
  )
  const tarballs = [...packed[tool].values()].map((p) => p.tarball)
  // --ignore-scripts: better-sqlite3 compiles for minutes where no prebuilt binary can be
  // fetched; the registry test installs the server with it built and runs it.
  await run('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', ...tarballs], {
    cwd: project,
  })
  return project
}

/** Loads the packages in ESM and CommonJS and prints what each exports. */
const IMPORTS = {
  'imports.mjs': `import * as contract from '@tasklane/contract'
import * as client from '@tasklane/client'
import * as validate from '@tasklane/client/validate'
console.log(JSON.stringify([contract, client, validate].map((m) => Object.keys(m).sort())))
`,
  'requires.cjs': `const loaded = ['@tasklane/contract', '@tasklane/client', '@tasklane/client/validate'].map(require)
console.log(JSON.stringify(loaded.map((m) => Object.keys(m).sort())))
`,
}

// Eight packs, each building its package (the server's with the web page): over 5 minutes at
// a load average of 10 on 2 cores.
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tasklane-pack-'))
  // One at a time: each pack builds its package's dist/ in place (prepack).
  for (const tool of TOOLS) {
    const out = join(dir, tool)
    await mkdir(out)
    for (const p of packages) {
      const tarball = await pack(p, tool, out)
      packed[tool].set(p.name, { tarball, report: await checkTarball(tarball) })
    }
  }
}, 600_000)
// Two installed projects of a few hundred packages each: slow to remove on a busy machine.
afterAll(() => rm(dir, { recursive: true, force: true }), 60_000)

describe('the publishable packages', () => {
  it('are the contract, the server, the client and the CLI (the release publishes exactly these)', () => {
    expect(packages.map((p) => p.name)).toEqual([
      '@tasklane/contract',
      '@tasklane/server',
      '@tasklane/client',
      '@tasklane/cli',
    ])
  })

  it('include the server as a command: bin tasklane-server, its build and its writer thread', () => {
    const { report } = packed.npm.get('@tasklane/server') ?? expect.unreachable()
    expect(report.manifest.bin).toEqual({ 'tasklane-server': './bin/tasklane-server.js' })
    expect(report.files).toEqual(
      expect.arrayContaining(['bin/tasklane-server.js', 'dist/main.js', 'dist/sqlite-worker.js']),
    )
  })

  it.each(TOOLS)('include the built web page in the server packed by %s', (tool) => {
    const { report } = packed[tool].get('@tasklane/server') ?? expect.unreachable()
    expect(report.files).toContain('dist/web/index.html')
    const assets = report.files.filter((f) => f.startsWith('dist/web/assets/'))
    expect(assets).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^dist\/web\/assets\/index-[\w-]+\.js$/),
        expect.stringMatching(/^dist\/web\/assets\/index-[\w-]+\.css$/),
      ]),
    )
  })

  it.each(TOOLS)(
    'declare the server, packed by %s, a command only: no entry point to import',
    (tool) => {
      const { report } = packed[tool].get('@tasklane/server') ?? expect.unreachable()
      expect(report.manifest.exports).toEqual({ './package.json': './package.json' })
      expect(report.manifest.bin).toEqual({ 'tasklane-server': './bin/tasklane-server.js' })
    },
  )

  it('leave every package.json of the workspace as it was written', async () => {
    for (const p of packages) {
      const manifest = JSON.parse(await readFile(join(p.dir, 'package.json'), 'utf8'))
      expect(manifest).toEqual(p.manifest)
      expect(existsSync(join(p.dir, 'package.json.unpacked'))).toBe(false)
    }
  })

  it('include the CLI as a command: bin tasklane, its build, the client as a dependency', () => {
    const { report } = packed.npm.get('@tasklane/cli') ?? expect.unreachable()
    expect(report.manifest.bin).toEqual({ tasklane: './dist/main.js' })
    expect(report.files).toEqual(expect.arrayContaining(['dist/main.js']))
    const client = packages.find((p) => p.name === '@tasklane/client')
    expect(report.manifest.dependencies).toEqual({ '@tasklane/client': `^${client?.version}` })
  })

  it('name no workspace: range in their package.json, so npm pack cannot ship one', () => {
    for (const p of packages) expect(JSON.stringify(p.manifest)).not.toContain('workspace:')
  })
})

describe.each(TOOLS)('every publishable package packed by %s pack', (tool) => {
  it.each(packages.map((p): [string, WorkspacePackage] => [p.name, p]))(
    '%s has no workspace: range, publint message or attw problem',
    (name) => {
      const { report } = packed[tool].get(name) ?? expect.unreachable()
      expect(report.problems).toEqual([])
      // The workspace's condition for the TypeScript sources stays in the workspace.
      expect(JSON.stringify(report.manifest)).not.toContain('@tasklane/source')
      expect(report.files).toContain('package.json')
      expect(report.files).toContain('README.md')
      expect(report.files).toContain('LICENSE')
      // Only what is built and documented: no sources, tests or configuration.
      expect(
        report.files.filter(
          (f) => !/^(dist\/.+|bin\/.+|README\.md|LICENSE|package\.json)$/.test(f),
        ),
      ).toEqual([])
    },
  )

  describe('installed with npm in an empty project outside the repository', () => {
    let project: string
    beforeAll(async () => {
      project = await consumer(tool)
      for (const [file, text] of Object.entries(IMPORTS)) await writeFile(join(project, file), text)
    }, 300_000)

    it.each(Object.keys(IMPORTS))(
      'loads the contract, the client and its validate entry from %s',
      async (file) => {
        const { stdout } = await run(process.execPath, [file], { cwd: project })
        const [contract, client, validate] = JSON.parse(stdout) as string[][]
        expect(contract).toEqual(expect.arrayContaining(['NewTask', 'Task', 'routes', 'schemas']))
        expect(client).toEqual(expect.arrayContaining(['createClient', 'ApiError', 'isApiError']))
        expect(validate).toEqual(['validateNewTask', 'validateResponses', 'validateTask'])
      },
    )

    it('runs tasklane --version and --help', async () => {
      const bin = join(project, 'node_modules/.bin/tasklane')
      const version = await run(bin, ['--version'], { cwd: project })
      expect(version.stdout).toBe(`${packages.find((p) => p.name === '@tasklane/cli')?.version}\n`)
      const help = await run(bin, ['--help'], { cwd: project })
      expect(help.stdout).toMatch(/^Usage: tasklane <command> \[options\]/)
    }, 30_000)

    it('runs tasklane-server --version and --help', async () => {
      const bin = join(project, 'node_modules/.bin/tasklane-server')
      const version = await run(bin, ['--version'], { cwd: project })
      expect(version.stdout).toBe(
        `${packages.find((p) => p.name === '@tasklane/server')?.version}\n`,
      )
      const help = await run(bin, ['--help'], { cwd: project })
      expect(help.stdout).toMatch(/^Usage: tasklane-server \[options\]/)
      for (const key of Object.keys(SettingsSchema.properties)) {
        expect(help.stdout).toContain(envName(key as keyof typeof SettingsSchema.properties))
      }
    }, 30_000)
  })
})

describe('npm pack and pnpm pack', () => {
  /** pnpm leaves out the prepack and postpack scripts, which have run by then; nothing else may differ. */
  const withoutPrepack = (report?: TarballReport) => {
    const {
      prepack: _,
      postpack: __,
      ...scripts
    } = (report?.manifest.scripts ?? {}) as Record<string, string>
    return { ...report?.manifest, scripts }
  }

  it.each(packages.map((p) => p.name))(
    'give %s the same files and the same package.json',
    (name) => {
      const byNpm = packed.npm.get(name)?.report
      const byPnpm = packed.pnpm.get(name)?.report
      expect(byNpm?.files).toEqual(byPnpm?.files)
      expect(withoutPrepack(byNpm)).toEqual(withoutPrepack(byPnpm))
    },
  )
})
