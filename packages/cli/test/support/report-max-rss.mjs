// Preloaded into a `tasklane` process (NODE_OPTIONS=--import=<this file>): at its exit,
// writes its peak resident memory in bytes to the file TASKLANE_TEST_MAX_RSS_FILE names.
import { writeFileSync } from 'node:fs'

process.once('exit', () => {
  const path = process.env.TASKLANE_TEST_MAX_RSS_FILE
  if (path) writeFileSync(path, String(process.resourceUsage().maxRSS * 1024))
})
