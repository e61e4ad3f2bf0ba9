import { execFileSync } from 'node:child_process'
import { resolve } from 'node:path'
import { defineConfig } from 'tsup'

/** The web page's app (apps/web), and where the server's build carries its page. */
const WEB_APP = resolve('../web')
const WEB_OUT = resolve('dist/web')

export default defineConfig({
  // The server, and the SQLite writer thread's entry, which Node loads by path beside it.
  entry: { main: 'src/main.ts', 'sqlite-worker': 'src/storage/sqlite/writer-worker.ts' },
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  // Overwrite rather than empty dist/ (a running test may be starting dist/main.js); the
  // build that is packed (prepack) starts from an empty dist/, so no stale chunk ships.
  clean: false,
  sourcemap: true,
  // The contract is bundled in, from its TypeScript sources (the "@tasklane/source" export
  // condition), so the server builds without building the contract first.
  noExternal: ['@tasklane/contract'],
  esbuildOptions(options) {
    options.conditions = ['@tasklane/source']
  },
  // The web page, built by its own toolchain (Vite) straight into dist/web, which the
  // published package carries and the server serves at / (src/web/root.ts finds it).
  // Straight from the page's sources: no race with the page's own build into apps/web/dist.
  async onSuccess() {
    const vite = resolve(WEB_APP, 'node_modules/vite/bin/vite.js')
    execFileSync(
      process.execPath,
      [vite, 'build', '--logLevel', 'warn', '--outDir', WEB_OUT, '--emptyOutDir'],
      { cwd: WEB_APP, stdio: 'inherit' },
    )
  },
})
