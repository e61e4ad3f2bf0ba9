// A task's priority as the API numbers it and as people say it.

/** Each priority's word, at the index of its number: 0 none, 1 low, 2 medium, 3 high. */
export const PRIORITY_WORDS: readonly string[] = ['none', 'low', 'medium', 'high']
