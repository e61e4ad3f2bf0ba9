/** Resolves after `ms`, or rejects with `abort()` as soon as `signal` aborts. */
export function sleep(
  ms: number,
  signal: AbortSignal | undefined,
  abort: () => unknown,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer)
      reject(abort())
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    if (signal?.aborted) onAbort()
    else signal?.addEventListener('abort', onAbort, { once: true })
  })
}
