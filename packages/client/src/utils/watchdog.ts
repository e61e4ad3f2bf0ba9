/** The signal of one attempt, and how to keep it alive and end it. */
export interface Watchdog {
  /** The signal to hand to fetch. */
  readonly signal: AbortSignal
  /** Starts the timeout again: something arrived. */
  restart(): void
  /** Stops the timer and the listener on the caller's signal: the attempt is over. */
  dispose(): void
  /** Aborts the signal, ending the connection. */
  abort(): void
}

/**
 * A signal that aborts with `abort()` when the caller's signal aborts, and with `timeout()`
 * once `timeoutMs` (0: never) pass without a `restart()`.
 */
export function watchdog(
  timeoutMs: number,
  callerSignal: AbortSignal | undefined,
  timeout: () => unknown,
  abort: () => unknown,
): Watchdog {
  const controller = new AbortController()
  const onAbort = () => controller.abort(abort())
  let timer: ReturnType<typeof setTimeout> | undefined
  const restart = () => {
    clearTimeout(timer)
    if (timeoutMs > 0) timer = setTimeout(() => controller.abort(timeout()), timeoutMs)
  }
  if (callerSignal?.aborted) onAbort()
  else callerSignal?.addEventListener('abort', onAbort, { once: true })
  restart()
  return {
    signal: controller.signal,
    restart,
    dispose() {
      clearTimeout(timer)
      callerSignal?.removeEventListener('abort', onAbort)
    },
    abort: () => controller.abort(),
  }
}
