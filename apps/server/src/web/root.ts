import { existsSync } from 'node:fs'
import { join } from 'node:path'

/**
 * Where the built page is: dist/web beside the server's own build (the build copies it
 * there, and the published package carries it), or, when the server runs from its
 * sources, the web app's build in the repository (apps/web/dist).
 */
export function defaultWebRoot(): string {
  // In the build, every module is bundled into dist/main.js: this directory is dist/.
  const beside = join(import.meta.dirname, 'web')
  return existsSync(beside) ? beside : join(import.meta.dirname, '../../../web/dist')
}
