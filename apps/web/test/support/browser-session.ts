import { type StartServerOptions, startServer, type TasklaneServer } from '@tasklane/testing/server'
import type { Browser } from 'playwright-core'
import { launchChromium } from './browser.js'
import { takeBrowserTurn } from './browser-turn.js'

/** A test file's Chromium and server, started in its turn (browser-turn.ts). */
export interface BrowserSession {
  readonly browser: Browser
  readonly server: TasklaneServer
  /**
   * Closes both, then runs `whileHeld` (a check that no other file's browser may disturb),
   * then gives the turn back, whatever failed.
   */
  close(whileHeld?: () => void): Promise<void>
}

/** Takes the Chromium turn, then starts Chromium and a server (of `options`) beside each other. */
export async function startBrowserSession(
  options: StartServerOptions = {},
): Promise<BrowserSession> {
  const giveBack = await takeBrowserTurn()
  try {
    const [browser, server] = await Promise.all([launchChromium(), startServer(options)])
    return {
      browser,
      server,
      async close(whileHeld) {
        try {
          await browser.close()
          await server.close()
          whileHeld?.()
        } finally {
          giveBack()
        }
      },
    }
  } catch (error) {
    giveBack()
    throw error
  }
}
