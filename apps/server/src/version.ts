import manifest from '../package.json' with { type: 'json' }

/** The server's version, from its package.json (bundled into the build). */
export const version: string = manifest.version
