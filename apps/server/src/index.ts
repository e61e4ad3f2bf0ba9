export { type AppOptions, BODY_LIMIT, buildApp } from './app.js'
export {
  ConfigError,
  envName,
  helpText,
  loadSettings,
  parseCommandLine,
  parseDatabaseUrl,
  type Settings,
  SettingsSchema,
} from './settings.js'
export { openStorage, type Storage, type StorageConfig } from './storage/index.js'
export { version } from './version.js'
