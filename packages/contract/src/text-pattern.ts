// A pattern for the text fields that every JSON Schema validator reads as Ajv does, for
// task.ts's text() to take in place of its own (which only JavaScript engines compile).

/** Whitespace as ECMAScript's `\s` has it (Go's `\s`, say, is ASCII only): spelled out. */
const WHITESPACE = '\t\n\v\f\r \u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000\uFEFF'

/** Characters that show nothing on their own, as task.ts lists them. */
const INVISIBLE =
  '\u00AD\u034F\u115F\u1160\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\u3164\uFEFF\uFFA0'

/**
 * Text with at least one visible character and no U+0000, as a pattern of literal
 * characters, classes and ranges only: no lookaround, no escape, no surrogate, which
 * Go's and Rust's engines refuse and Python's and Java's read otherwise. Lengths are
 * `minLength`/`maxLength`'s (code points); an unpaired surrogate is the server's to refuse
 * (a JSON body that holds one), as no portable pattern can name it.
 */
export const PORTABLE_TEXT_PATTERN = `^[${WHITESPACE}${INVISIBLE}]*[^${WHITESPACE}${INVISIBLE}\u0000][^\u0000]*$`
