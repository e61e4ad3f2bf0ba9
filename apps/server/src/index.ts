export { type AppOptions, BODY_LIMIT, buildApp } from './app.js'
export { type Config, type DatabaseConfig, loadConfig, parseDatabaseUrl } from './config.js'
export { type Database, openDatabase } from './db/database.js'
