import { execFile } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)

/** The repository's root directory. */
export const ROOT = resolve(import.meta.dirname, '../..')

/** The pnpm that the repository pins (`packageManager`), fetched by npx when missing. */
export const PNPM = ['--yes', 'pnpm@10.34.9'] as const

/** The fields of a package.json that packing and publishing read. */
export interface Manifest {
  readonly name: string
  readonly version: string
  readonly private?: boolean
  readonly bin?: string | Record<string, string>
  readonly dependencies?: Record<string, string>
  readonly peerDependencies?: Record<string, string>
  readonly devDependencies?: Record<string, string>
  readonly [field: string]: unknown
}

/** A package of the workspace. */
export interface WorkspacePackage {
  readonly name: string
  readonly version: string
  /** Absolute path of its directory. */
  readonly dir: string
  readonly manifest: Manifest
}

/** Every package of pnpm-workspace.yaml (`dir/*` globs and plain directories). */
export function workspacePackages(): WorkspacePackage[] {
  const yaml = readFileSync(join(ROOT, 'pnpm-workspace.yaml'), 'utf8')
  const section = /^packages:\n((?:\s+-.*\n?)+)/m.exec(yaml)?.[1] ?? ''
  const patterns = [...section.matchAll(/-\s*['"]?([^'"\n]+?)['"]?\s*$/gm)].map((m) => m[1] ?? '')
  const dirs = patterns.flatMap((pattern) => {
    if (!pattern.endsWith('/*')) return [join(ROOT, pattern)]
    const parent = join(ROOT, pattern.slice(0, -2))
    return readdirSync(parent, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => join(parent, entry.name))
  })
  return dirs
    .filter((dir) => existsSync(join(dir, 'package.json')))
    .map((dir) => {
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest
      return { name: manifest.name, version: manifest.version, dir, manifest }
    })
}

/**
 * The packages that are published (every one not marked private), dependencies before
 * their dependents: the order to publish in, so that no package reaches the registry
 * before one it installs.
 */
export function publishablePackages(): WorkspacePackage[] {
  const packages = workspacePackages().filter((p) => p.manifest.private !== true)
  const byName = new Map(packages.map((p) => [p.name, p]))
  const ordered: WorkspacePackage[] = []
  const visiting = new Set<string>()
  const visit = (p: WorkspacePackage) => {
    if (ordered.includes(p)) return
    if (visiting.has(p.name)) throw new Error(`Dependency cycle through ${p.name}`)
    visiting.add(p.name)
    const { dependencies, peerDependencies, devDependencies } = p.manifest
    for (const name of Object.keys({ ...dependencies, ...peerDependencies, ...devDependencies })) {
      const dependency = byName.get(name)
      if (dependency) visit(dependency)
    }
    visiting.delete(p.name)
    ordered.push(p)
  }
  for (const p of packages.sort((a, b) => a.name.localeCompare(b.name))) visit(p)
  return ordered
}

/** Which tool packs: the two a maintainer may type, which must give the same tarball. */
export type PackTool = 'npm' | 'pnpm'

/**
 * Packs a package with `npm pack` or `pnpm pack` (each runs the package's `prepack`
 * build) into `destination`; resolves to the tarball's absolute path.
 */
export async function pack(p: WorkspacePackage, tool: PackTool, destination: string) {
  const [command, args] =
    tool === 'npm'
      ? ['npm', ['pack', '--json', '--pack-destination', destination]]
      : ['npx', [...PNPM, 'pack', '--json', '--pack-destination', destination]]
  const { stdout } = await run(command, args, { cwd: p.dir, maxBuffer: 64 * 1024 * 1024 })
  // npm prints an array and pnpm one object; both name the file (npm relative to destination).
  const report = JSON.parse(stdout.slice(stdout.search(/^[[{]/m))) as
    | { filename: string }
    | { filename: string }[]
  const { filename } = Array.isArray(report) ? (report[0] ?? { filename: '' }) : report
  return resolve(destination, filename)
}

/** The `workspace:` ranges a manifest still has (none may reach a tarball). */
export function workspaceRanges(manifest: Manifest): string[] {
  const fields = ['dependencies', 'peerDependencies', 'optionalDependencies', 'devDependencies']
  return fields.flatMap((field) =>
    Object.entries((manifest[field] as Record<string, string> | undefined) ?? {})
      .filter(([, range]) => range.startsWith('workspace:'))
      .map(([name, range]) => `${field}.${name}: ${range}`),
  )
}
