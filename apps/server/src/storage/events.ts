/**
 * Something the storage meets beyond any one request (its writer thread died, came back):
 * the app logs it (plugins/health.ts); storage imports nothing from the HTTP layer.
 */
export interface StorageEvent {
  readonly level: 'error' | 'warn' | 'info'
  readonly message: string
  readonly err?: unknown
}

/** Listeners of StorageEvents: `report` tells each of them. */
export class StorageEvents {
  readonly #listeners = new Set<(event: StorageEvent) => void>()

  /** Calls `listener` with every later event; returns the function that stops the calls. */
  subscribe(listener: (event: StorageEvent) => void): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  readonly report = (event: StorageEvent): void => {
    for (const listener of this.#listeners) listener(event)
  }
}
