// Task names and tags may hold any character. Printed as text, control characters (an
// escape sequence could rewrite the terminal), line breaks and bidirectional overrides are
// shown escaped, and widths count the columns a terminal gives each character.

/** C0 and C1 controls, DEL, and the bidirectional embedding, override and isolate marks. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is its job.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/gu
const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' }

/** Combining marks, zero-width characters and variation selectors take no column. */
const ZERO_WIDTH = /^(?:\p{Mn}|\p{Me}|[\u200b-\u200f\u2060]|[\ufe00-\ufe0f])$/u
/** East Asian wide and fullwidth characters, and emoji, take two. */
const WIDE =
  /^[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{1f300}-\u{1f64f}\u{1f900}-\u{1f9ff}\u{20000}-\u{3fffd}]$|^\p{Extended_Pictographic}$/u

/** `text` with every unsafe character written as an escape: `\n`, `\u001b`. */
export function escapeControls(text: string): string {
  return text.replace(
    UNSAFE,
    (char) => NAMED[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  )
}

/**
 * Any value a server sent, as text a terminal shows as text: a string escaped, a number or
 * boolean as it is, nothing for null or no value, anything else (an object where a name
 * should be) as its JSON, escaped. No field a server controls is printed any other way.
 */
export function terminalText(value: unknown): string {
  if (typeof value === 'string') return escapeControls(value)
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  if (value === null || value === undefined) return ''
  return escapeControls(JSON.stringify(value) ?? String(value))
}

/** Columns one code point takes on a terminal. */
function charWidth(char: string): number {
  if (ZERO_WIDTH.test(char)) return 0
  return WIDE.test(char) ? 2 : 1
}

/** Columns `text` (already escaped) takes on a terminal. */
export function displayWidth(text: string): number {
  let width = 0
  for (const char of text) width += charWidth(char)
  return width
}

/** `text` cut to at most `columns` columns, ending with `…` when cut. */
export function truncate(text: string, columns: number): string {
  if (displayWidth(text) <= columns) return text
  let out = ''
  let width = 0
  for (const char of text) {
    const w = charWidth(char)
    if (width + w > columns - 1) break
    out += char
    width += w
  }
  return `${out}…`
}

/** `text` padded with spaces to `columns` columns. */
export function padEnd(text: string, columns: number): string {
  return text + ' '.repeat(Math.max(0, columns - displayWidth(text)))
}
