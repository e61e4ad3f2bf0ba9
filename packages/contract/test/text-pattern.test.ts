import { spawnSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { TaskName } from '../src/index.js'
import { PORTABLE_TEXT_PATTERN } from '../src/text-pattern.js'

/** Texts of every kind the text rules tell apart, well-formed and within 200 code points. */
const TEXTS = [
  'Write docs',
  '😀'.repeat(20),
  '任务 مهمة',
  'a\nb',
  '👩\u200D💻',
  'invoice\u202Efdp.exe',
  ' \u3000x',
  '\u200Bx\u200B',
  '',
  ' \t\n',
  '\u3000\u00A0\u2028',
  '\u200B\u200C\u200D\u2060\uFEFF',
  '\u202E \u2066\u2069',
  'a\u0000b',
  '\u0000',
]

/** Python 3 is there to ask (Debian has it; the test says what Python makes of the pattern). */
const hasPython = spawnSync('python3', ['--version']).error === undefined

const portable = (value: string, flags?: string) =>
  new RegExp(PORTABLE_TEXT_PATTERN, flags).test(value)

describe('PORTABLE_TEXT_PATTERN', () => {
  it('is literal characters, classes and ranges only: no escape, no lookaround, no surrogate', () => {
    expect(PORTABLE_TEXT_PATTERN).not.toContain('\\')
    expect(PORTABLE_TEXT_PATTERN).not.toContain('(?')
    expect(PORTABLE_TEXT_PATTERN).not.toMatch(/[\uD800-\uDFFF]/)
  })

  it.each(TEXTS.map((text) => [JSON.stringify(text), text]))(
    'judges %s as the contract pattern does, with and without the u flag',
    (_label, text) => {
      const contract = new RegExp(TaskName.pattern as string, 'u').test(text)
      expect(portable(text)).toBe(contract)
      expect(portable(text, 'u')).toBe(contract)
    },
  )

  it('leaves an unpaired surrogate to the server, which refuses it in a JSON body', () => {
    expect(portable('a\uD800')).toBe(true)
  })

  it.runIf(hasPython)('reads the same in Python’s re', () => {
    const script = `import json, re, sys
data = json.load(sys.stdin)
pattern = re.compile(data["pattern"])
print(json.dumps([pattern.search(text) is not None for text in data["texts"]]))`
    const run = spawnSync('python3', ['-c', script], {
      input: JSON.stringify({ pattern: PORTABLE_TEXT_PATTERN, texts: TEXTS }),
      encoding: 'utf8',
    })
    expect(run.stderr).toBe('')
    expect(JSON.parse(run.stdout)).toEqual(TEXTS.map((text) => portable(text, 'u')))
  })
})
