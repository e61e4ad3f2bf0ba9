/**
 * tasklane with some per-request plugins left out, for the bench's ablation
 * (`pnpm bench -- --ablation`): what apps/server/src/main.ts does, in essence (settings
 * from the environment, storage, `buildApp`, listen, close on SIGTERM), with the app's
 * plugins less those named by `--without=<plugin,plugin>`, and with `--compress-all` the
 * compression plugin compressing every body (its threshold 0: the price of compressing the
 * small page the product sends as it is). Never a way to run the product.
 */
import { createRequire } from 'node:module'
import { buildApp, loadSettings, openStorage } from '@tasklane/server'
import { APP_PLUGINS, type AppPlugin } from '@tasklane/server/app-plugins'
import compression from '@tasklane/server/compression'
import { ABLATED_PLUGINS, type AblatedPlugin } from './ablated-plugins.js'

const given = process.argv
  .slice(2)
  .find((arg) => arg.startsWith('--without='))
  ?.slice('--without='.length)
const without = (given ? given.split(',').filter(Boolean) : []) as AblatedPlugin[]
for (const name of without) {
  if (!ABLATED_PLUGINS.includes(name)) {
    console.error(`--without: "${name}" is none of ${ABLATED_PLUGINS.join(', ')}.`)
    process.exit(2)
  }
}

/** The compression plugin with threshold 0, in place of the app's. */
const compressAll: AppPlugin = {
  name: 'compression',
  register: (app) => app.register(compression, { threshold: 0 }),
}
const plugins = APP_PLUGINS.filter(({ name }) => !without.includes(name as AblatedPlugin)).map(
  (plugin) =>
    plugin.name === 'compression' && process.argv.includes('--compress-all') ? compressAll : plugin,
)

const settings = loadSettings(process.env)
const storage = await openStorage(settings.storage)
/** The part of pino used here (the server's own copy: pino is no dependency of the bench). */
interface Pino {
  destination(options: { dest: number; sync: boolean }): {
    write(line: string): void
    flushSync(): void
  }
}
// The server's own pino, writing asynchronously as main.ts has it.
const pino = createRequire(import.meta.resolve('@tasklane/server'))('pino') as Pino
const stream = pino.destination({ dest: 1, sync: false })
const app = await buildApp({
  storage,
  settings,
  logger: { level: settings.logLevel, stream },
  plugins,
})
await app.listen({ port: settings.port, host: settings.host })
app.log.info({ without }, 'ablation server listening')
process.once('SIGTERM', () => {
  void app
    .close()
    .then(() => storage.close())
    .finally(() => {
      stream.flushSync()
      process.exit(0)
    })
})
