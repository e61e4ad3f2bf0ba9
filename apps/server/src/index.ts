export {
  ABLATABLE_FEATURES,
  type AblatableFeature,
  type AppOptions,
  BODY_LIMIT,
  buildApp,
} from './app.js'
export { ConfigError } from './settings/config-error.js'
export { parseDatabaseUrl } from './settings/database-url.js'
export { helpText } from './settings/help.js'
export { loadSettings, parseCommandLine, type Settings } from './settings/parse.js'
export { envName, SettingsSchema } from './settings/schema.js'
export { openStorage, type Storage, type StorageConfig } from './storage/index.js'
export { version } from './version.js'
