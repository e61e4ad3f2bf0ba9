/**
 * The chunks of a response body as they arrive, calling `onChunk` on every read, so that a
 * caller can tell a quiet connection from a dead one. Stopping early cancels the body.
 */
export async function* readChunks(
  body: ReadableStream<Uint8Array> | null,
  onChunk: () => void,
): AsyncGenerator<Uint8Array, void, undefined> {
  if (body === null) return
  const reader = body.getReader()
  try {
    for (;;) {
      const { done, value } = await reader.read()
      onChunk()
      if (done) return
      yield value
    }
  } finally {
    reader.cancel().catch(() => {})
  }
}
