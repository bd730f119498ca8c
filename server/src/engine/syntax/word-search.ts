/**
 * Where a name is written as a whole word, by a plain search for it: the per-name
 * regular expressions with a lookbehind (`(?<![\w$.])name(?![\w$])`) that this replaces
 * could not start with a literal search and tried every position of the module, for
 * every name asked about in every file (the largest engine cost in a check's profile
 * after parsing).
 */

/** `[A-Za-z0-9_]`, and `$` when `dollar`: what continues a word. */
function isWordChar(code: number, dollar: boolean): boolean {
  return (
    (code >= 48 && code <= 57) ||
    (code >= 65 && code <= 90) ||
    (code >= 97 && code <= 122) ||
    code === 95 ||
    (dollar && code === 36)
  );
}

export interface WordRule {
  /** `$` is a word character (JavaScript) or not (Python). */
  dollar: boolean;
  /** A `.` before the name rules it out (a property, not the name itself). */
  notAfterDot: boolean;
}

/** Offsets in `text` where `name` is written with no word character around it (see `WordRule`). */
export function* wordOccurrences(text: string, name: string, rule: WordRule): Generator<number> {
  if (!name) return;
  for (let at = text.indexOf(name); at >= 0; at = text.indexOf(name, at + 1)) {
    const before = at > 0 ? text.charCodeAt(at - 1) : -1;
    const after = at + name.length < text.length ? text.charCodeAt(at + name.length) : -1;
    if (before >= 0 && (isWordChar(before, rule.dollar) || (rule.notAfterDot && before === 46))) continue;
    if (after >= 0 && isWordChar(after, rule.dollar)) continue;
    yield at;
  }
}
