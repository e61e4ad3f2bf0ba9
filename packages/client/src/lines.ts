/**
 * The lines of a response body as they arrive: `\r\n`, `\n` or `\r` ends one (what both
 * Server-Sent Events and NDJSON allow). `onChunk` is called on every chunk read, so a
 * caller can tell a quiet connection from a dead one. Stopping early cancels the body.
 */
export async function* lines(response: Response, onChunk: () => void): AsyncGenerator<string> {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader()
  const decoder = new TextDecoder()
  let buffer = ''
  try {
    for (;;) {
      const { done, value } = await reader.read()
      onChunk()
      buffer += decoder.decode(value, { stream: !done })
      let start = 0
      for (let i = 0; i < buffer.length; i++) {
        const char = buffer[i]
        if (char !== '\n' && char !== '\r') continue
        // A `\r` at the end of a chunk may be the first half of `\r\n`: wait for the next.
        if (char === '\r' && i + 1 === buffer.length && !done) break
        yield buffer.slice(start, i)
        if (char === '\r' && buffer[i + 1] === '\n') i++
        start = i + 1
      }
      buffer = buffer.slice(start)
      if (done) {
        if (buffer !== '') yield buffer
        return
      }
    }
  } finally {
    reader.cancel().catch(() => {})
  }
}
