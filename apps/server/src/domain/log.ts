import type { BaseLogger } from 'pino'

/** What the services log through: the app's pino logger, or any logger of its shape. */
export type Log = Pick<BaseLogger, 'debug' | 'info' | 'warn' | 'error'>
