/**
 * Whether a file calls a library's model by a name written like a class (`User.get(`,
 * `Order.query(`): the gate a library front-end runs over a file that names no library, on
 * every keystroke. A pattern starting `\b[A-Z]\w*\s*\.` is tried at every capital of the text
 * (0.5 ms on a 3,000-line file, three libraries over); here only the dotted method calls are
 * searched for, and the name before each is read backwards. Same answers as that pattern.
 */

/** `\s` as a pattern reads it (without the `u` flag). */
const SPACE = /\s/;

function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13) || (c > 127 && SPACE.test(String.fromCharCode(c)));
}

/** `\w` as a pattern reads it. */
function isWord(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

/**
 * The receiver written right before the dot at `dot` (spaces between them allowed): the word
 * that ends there, from its start. Empty when no word does.
 */
function wordBefore(text: string, dot: number): { start: number; end: number } {
  let end = dot;
  while (end > 0 && isSpace(text.charCodeAt(end - 1))) end--;
  let start = end;
  while (start > 0 && isWord(text.charCodeAt(start - 1))) start--;
  return { start, end };
}

/** The word before `dot` starts with a capital: what `\b[A-Z]\w*\s*` before it matches. */
export function capitalBefore(text: string, dot: number): boolean {
  const w = wordBefore(text, dot);
  const c = text.charCodeAt(w.start);
  return w.start < w.end && c >= 65 && c <= 90;
}

/** The word before `dot` ends in `suffix` (`userModel.`). */
export function wordBeforeEndsWith(text: string, dot: number, suffix: string): boolean {
  const w = wordBefore(text, dot);
  return w.end - w.start >= suffix.length && text.startsWith(suffix, w.end - suffix.length);
}

/**
 * Whether `calls` (a global pattern starting with `\.`, matching no other dot) matches somewhere
 * with `accept` true for the match: each dotted call written in the text, in order.
 */
export function someDottedCall(text: string, calls: RegExp, accept: (m: RegExpExecArray) => boolean): boolean {
  calls.lastIndex = 0;
  let found = false;
  for (let m = calls.exec(text); m && !found; m = calls.exec(text)) found = accept(m);
  // The pattern is shared with the readers that search the same calls from the start.
  calls.lastIndex = 0;
  return found;
}
