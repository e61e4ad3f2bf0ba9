import { type FileHandle, open } from 'node:fs/promises'
import { FileError, fileErrorOf } from '../file-error.js'

/** Where an import reads its lines from. */
export interface ImportInput {
  /** The input's bytes, as they are read; a chunk is valid only until the next one is asked for. */
  readonly chunks: AsyncIterable<Buffer | string>
  /** Its length in bytes when known (a file), for the share shown in the progress line. */
  readonly size: number | undefined
  /** Stops reading: an interrupted import must not wait for the rest of a pipe. */
  close(): void
}

/** Bytes read from a file at a time. */
const CHUNK = 64 * 1024

/**
 * The file at `path`, or standard input for `-`; a FileError (exit status 2) when the
 * file cannot be read.
 */
export async function openInput(path: string, stdin: NodeJS.ReadableStream): Promise<ImportInput> {
  if (path === '-') return { chunks: stdin, size: undefined, close: () => destroy(stdin) }
  const handle = await open(path).catch((error: NodeJS.ErrnoException) => {
    throw fileErrorOf('import', path, error)
  })
  const stats = await handle.stat()
  if (!stats.isFile()) {
    await handle.close()
    throw new FileError('import', 'not a file', path)
  }
  return { chunks: readChunks(handle), size: stats.size, close: () => void handle.close() }
}

/**
 * The file's bytes, read into one buffer used again for every chunk: a file of any size,
 * with lines of any length, is read without leaving a chunk behind for the garbage collector
 * (a stream's fresh buffer per chunk let a 32 MiB line raise the peak memory by 24 MiB).
 */
async function* readChunks(handle: FileHandle): AsyncGenerator<Buffer, void, undefined> {
  const buffer = Buffer.allocUnsafe(CHUNK)
  try {
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, CHUNK, null)
      if (bytesRead === 0) return
      yield buffer.subarray(0, bytesRead)
    }
  } finally {
    await handle.close()
  }
}

function destroy(stream: NodeJS.ReadableStream): void {
  ;(stream as { destroy?: () => void }).destroy?.()
}
