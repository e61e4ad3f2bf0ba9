import { open } from 'node:fs/promises'
import { FileError, fileErrorOf } from '../file-error.js'

/** Where an import reads its lines from. */
export interface ImportInput {
  readonly stream: NodeJS.ReadableStream
  /** Its length in bytes when known (a file), for the share shown in the progress line. */
  readonly size: number | undefined
  /** Stops reading: an interrupted import must not wait for the rest of a pipe. */
  close(): void
}

/**
 * The file at `path`, or standard input for `-`; a FileError (exit status 2) when the
 * file cannot be read.
 */
export async function openInput(path: string, stdin: NodeJS.ReadableStream): Promise<ImportInput> {
  if (path === '-') return { stream: stdin, size: undefined, close: () => destroy(stdin) }
  const handle = await open(path).catch((error: NodeJS.ErrnoException) => {
    throw fileErrorOf('import', path, error)
  })
  const stats = await handle.stat()
  if (!stats.isFile()) {
    await handle.close()
    throw new FileError('import', 'not a file', path)
  }
  // The stream closes the handle once it ends or is destroyed.
  const stream = handle.createReadStream()
  return { stream, size: stats.size, close: () => stream.destroy() }
}

function destroy(stream: NodeJS.ReadableStream): void {
  ;(stream as { destroy?: () => void }).destroy?.()
}
