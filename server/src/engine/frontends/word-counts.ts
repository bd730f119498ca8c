/**
 * Whole words of a file's text, counted: the reachability reading uses them to skip marks
 * whose words are not written (no `Controller` in the text, no NestJS controller to look
 * for) and to tell a function called in its own file from one only defined there.
 */
const WORD_CHAR = /[\w$]/;
const WORD = /[\w$]+/g;
export const WHOLE_WORD = /^[\w$]+$/;

/**
 * Past this many functions a file's words are counted in one pass: a search per name
 * reads the whole file for every name written only where it is defined (a 100 KB store
 * of 185 methods spent 40% of its reading in those searches).
 */
export const MANY_FUNCTIONS = 16;

/** How often each of `names` is written as a whole word in `text`; names that are not one word are left out. */
export function wordCounts(text: string, names: ReadonlyMap<string, number>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const name of names.keys()) if (WHOLE_WORD.test(name)) counts.set(name, 0);
  for (const m of text.matchAll(WORD)) {
    const n = counts.get(m[0]);
    if (n !== undefined) counts.set(m[0], n + 1);
  }
  return counts;
}

/**
 * Whether a mark may be written in the text: with the text's word counts (kept edit by edit
 * in the language server), only when one of the words it needs is; else (a whole reading)
 * always. A whole-text search for a mark cost a tenth of reading an edited file again.
 */
export function mayBeWritten(words: WordCounts | undefined, needed: readonly string[]): boolean {
  return !words || needed.some((w) => words.has(w));
}

/** How often each word is written in a text, as `countWords` counts them. */
export type WordCounts = ReadonlyMap<string, number>;

/**
 * Adds `sign` for each word (`[\w$]+`) written in `text` from `from` to `to`, which
 * must not cut a word, to `into`; a count that falls to 0 is removed.
 */
export function countWords(text: string, into = new Map<string, number>(), sign = 1, from = 0, to = text.length) {
  const word = /[\w$]+/g;
  word.lastIndex = from;
  for (let m = word.exec(text); m && m.index < to; m = word.exec(text)) {
    const n = (into.get(m[0]) ?? 0) + sign;
    if (n === 0) into.delete(m[0]);
    else into.set(m[0], n);
  }
  return into;
}

/** Whether a UTF-16 unit is one of `[\w$]`. */
export function isWordChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 36;
}

/**
 * Whether `name` is written as a word more than `times` times in `text`. A native search
 * that stops at the first use past the definitions: most functions are called early, and
 * counting every word of a file cost a tenth of reading it.
 */
export function writtenMoreThan(text: string, name: string, times: number): boolean {
  let seen = 0;
  for (let at = text.indexOf(name); at >= 0; at = text.indexOf(name, at + name.length)) {
    const before = at > 0 ? text[at - 1] : '';
    const after = text[at + name.length] ?? '';
    if (WORD_CHAR.test(before) || WORD_CHAR.test(after)) continue;
    if (++seen > times) return true;
  }
  return false;
}
