import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { isAlive } from '@tasklane/testing/launch'

/** Where the turn is kept: a directory beside the run's TMPDIR (test/global-setup.ts). */
export const BROWSER_TURN_ENV = 'TASKLANE_WEB_BROWSER_TURN'

/** The pid in a turn's directory; 0 while its taker has not written it yet. */
function holderOf(turn: string): number {
  try {
    return Number(readFileSync(join(turn, 'pid'), 'utf8')) || 0
  } catch {
    return 0
  }
}

/**
 * One Chromium at a time. Vitest runs this project's files beside the other projects'
 * files, and two browsers at once on 2 cores slow each other past the tests' timeouts;
 * so a file takes the turn before it starts its browser and server, and gives it back
 * once it has closed them. The turn is a directory (mkdir is atomic) that holds the
 * taker's pid: a turn whose worker died is taken over. Resolves to the giving back.
 */
export async function takeBrowserTurn(): Promise<() => void> {
  const turn = process.env[BROWSER_TURN_ENV]
  if (!turn) throw new Error(`${BROWSER_TURN_ENV} is not set: run the web tests through Vitest`)
  for (;;) {
    try {
      mkdirSync(turn)
      writeFileSync(join(turn, 'pid'), String(process.pid))
      return () => rmSync(turn, { recursive: true, force: true })
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
    const holder = holderOf(turn)
    if (holder !== 0 && holder !== process.pid && !isAlive(holder)) {
      rmSync(turn, { recursive: true, force: true })
    } else {
      await sleep(100)
    }
  }
}
