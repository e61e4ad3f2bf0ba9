/**
 * DEL, the C1 controls (U+009B starts an escape sequence on many terminals) and the
 * bidirectional marks, which JSON.stringify leaves as they are; it escapes the C0 ones.
 */
const RAW_AFTER_STRINGIFY = /[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/gu

/**
 * `value` as JSON (indented by `indent` spaces when given) that a terminal shows as text:
 * the characters above written as `\u` escapes, which every JSON reader reads back as the
 * same characters. They can only stand inside strings, where the escape is valid JSON.
 */
export function toJson(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent).replace(
    RAW_AFTER_STRINGIFY,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  )
}
