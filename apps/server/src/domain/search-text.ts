/**
 * Text as search sees it, the same on every backend because it is made here, once, at
 * write time: lower case, accents gone (NFKD without combining marks), words as runs of
 * letters and digits, each Han, Hiragana or Katakana character a word of its own (those
 * scripts put no space between words). A task's search text is its words, each with a
 * space before it and after the last: a word of a query matches the start of a word of
 * the task when ` <word>` occurs in it, which both SQLite (an FTS5 trigram index) and
 * PostgreSQL (a pg_trgm index) answer as `LIKE '% <word>%'`.
 */

/** A character that is a word by itself: Han, Hiragana, Katakana. */
const OWN_WORD = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u

/** Runs of letters and digits, or single characters that are words of their own. */
const WORDS = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]|[\p{L}\p{N}]+/gu

/** The words of `text`, as search compares them. */
export function searchWords(text: string): string[] {
  const folded = text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase()
  const words: string[] = []
  for (const [word] of folded.matchAll(WORDS)) {
    // A run of letters may hold an own-word character after folding: split it out.
    if (word.length > 1 && OWN_WORD.test(word)) {
      for (const part of word.split(/([\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}])/u)) {
        if (part !== '') words.push(part)
      }
    } else {
      words.push(word)
    }
  }
  return words
}

/** A task's search text: the words of its name and notes, ` word word `. */
export function searchText(name: string, notes: string | null): string {
  const words = searchWords(notes === null ? name : `${name}\n${notes}`)
  return words.length === 0 ? ' ' : ` ${words.join(' ')} `
}
