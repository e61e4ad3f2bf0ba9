// The package.json a tarball carries. A package's `prepack` runs `node …/pack-manifest.mjs
// strip` in its directory and its `postpack` `… restore`; npm and pnpm both pack the
// package.json they find after prepack, so both tarballs get the same manifest.
//
// `strip` takes the "@tasklane/source" export condition out (it leads the workspace to the
// TypeScript sources, which a tarball does not hold), and any entry left with nothing to
// export; the package.json as written is kept beside it until `restore` puts it back.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs'

const CONDITION = '@tasklane/source'
const MANIFEST = 'package.json'
const KEPT = 'package.json.unpacked'

/** `exports` without the condition; undefined where nothing is left. */
function withoutCondition(exports) {
  if (exports === null || typeof exports !== 'object' || Array.isArray(exports)) return exports
  const kept = Object.entries(exports)
    .filter(([key]) => key !== CONDITION)
    .map(([key, value]) => [key, withoutCondition(value)])
    .filter(([, value]) => value !== undefined)
  return kept.length === 0 ? undefined : Object.fromEntries(kept)
}

const command = process.argv[2]
// A pack that died between prepack and postpack left the stripped manifest: start over
// from the one as written.
if (existsSync(KEPT)) renameSync(KEPT, MANIFEST)
if (command === 'strip') {
  const text = readFileSync(MANIFEST, 'utf8')
  const manifest = JSON.parse(text)
  writeFileSync(KEPT, text)
  manifest.exports = withoutCondition(manifest.exports)
  writeFileSync(MANIFEST, `${JSON.stringify(manifest, null, 2)}\n`)
} else if (command !== 'restore') {
  console.error('Usage: node pack-manifest.mjs strip|restore (in the directory of a package)')
  process.exitCode = 2
}
