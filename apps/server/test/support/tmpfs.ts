import { spawnSync } from 'node:child_process'
import { closeSync, openSync, writeSync } from 'node:fs'
import { join } from 'node:path'

/**
 * Mounts a tmpfs of `size` (such as `4m`) on the directory `dir`: a small disk of its
 * own that a test can fill. False when that is not possible (not root, no mount).
 */
export function mountTmpfs(dir: string, size: string): boolean {
  const result = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], {
    stdio: 'ignore',
  })
  return result.status === 0
}

/** Unmounts what mountTmpfs mounted (lazily, should a file still be open there). */
export function unmountTmpfs(dir: string): void {
  spawnSync('umount', ['-l', dir], { stdio: 'ignore' })
}

/** Fills the file system of `dir` to its last byte with the file `name`; returns its path. */
export function fillDisk(dir: string, name = 'fill'): string {
  const path = join(dir, name)
  const fd = openSync(path, 'w')
  const block = Buffer.alloc(64 * 1024, 1)
  try {
    for (;;) {
      // Smaller and smaller writes near the end, down to the last byte that fits.
      let size = block.length
      for (;;) {
        try {
          writeSync(fd, block, 0, size)
          break
        } catch (error) {
          if ((error as { code?: string }).code !== 'ENOSPC') throw error
          if (size === 1) return path
          size = Math.max(1, size >> 1)
        }
      }
    }
  } finally {
    closeSync(fd)
  }
}
