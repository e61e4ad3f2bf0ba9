/**
 * tasklane with some per-request features left out, for the bench's ablation
 * (`pnpm bench -- --ablation`): what apps/server/src/main.ts does, in essence (settings
 * from the environment, storage, `buildApp`, listen, close on SIGTERM), with `buildApp`'s
 * `without` taken from `--without=<feature,feature>`. Never a way to run the product.
 */
import { createRequire } from 'node:module'
import {
  ABLATABLE_FEATURES,
  type AblatableFeature,
  buildApp,
  loadSettings,
  openStorage,
} from '@tasklane/server'

const given = process.argv
  .slice(2)
  .find((arg) => arg.startsWith('--without='))
  ?.slice('--without='.length)
const without = (given ? given.split(',').filter(Boolean) : []) as AblatableFeature[]
for (const feature of without) {
  if (!ABLATABLE_FEATURES.includes(feature)) {
    console.error(`--without: "${feature}" is none of ${ABLATABLE_FEATURES.join(', ')}.`)
    process.exit(2)
  }
}

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
  without,
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
