/** Thrown for settings that cannot work; main prints the message and exits 2. */
export class ConfigError extends Error {
  override name = 'ConfigError'
}
