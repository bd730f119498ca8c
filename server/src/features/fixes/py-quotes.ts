/**
 * The quotes of the strings a fix writes into a Python file. The fixes write double
 * quotes (black's default), but many projects write single ones (`table.query(IndexName=
 * 'byStatus')`): a reader or a key written in the other style is the one part of the file
 * a reviewer sees was not written by its author, and flake8-quotes reports it. So every
 * string a fix writes takes the file's quote when the file clearly uses one (three in four
 * of its one-line strings). Triple-quoted strings (docstrings) keep `"""`, as PEP 8 asks
 * of every file; comments are left as they are. An f-string's fields keep strings of the
 * other quote, since before Python 3.12 a field may not hold the string's own quote:
 * `f"{item['SK']}"` becomes `f'{item["SK"]}'`.
 */

type Quote = "'" | '"';

interface PyString {
  start: number;
  end: number;
  /** The letters before the quote: `f`, `r`, `rb`, ... */
  prefix: string;
  triple: boolean;
}

const PREFIX = /^(?:[rR][bBfF]?|[bBfF][rR]?|[uU])$/;

/** Each string literal of `code`; null when the code does not lex (an unterminated string). */
function pyStrings(code: string): PyString[] | null {
  const out: PyString[] = [];
  let i = 0;
  while (i < code.length) {
    const c = code[i];
    if (c === '#') {
      const nl = code.indexOf('\n', i);
      i = nl < 0 ? code.length : nl;
    } else if (/[A-Za-z_0-9]/.test(c)) {
      let j = i;
      while (j < code.length && /\w/.test(code[j])) j++;
      const word = code.slice(i, j);
      if ((code[j] === "'" || code[j] === '"') && PREFIX.test(word)) {
        const end = stringEnd(code, j);
        if (end === null) return null;
        out.push({ start: i, end, prefix: word, triple: code.startsWith(code[j].repeat(3), j) });
        i = end;
      } else i = j;
    } else if (c === "'" || c === '"') {
      const end = stringEnd(code, i);
      if (end === null) return null;
      out.push({ start: i, end, prefix: '', triple: code.startsWith(c.repeat(3), i) });
      i = end;
    } else i++;
  }
  return out;
}

/** Where the string opening at `at` ends; null when it does not (a fragment of a longer text). */
function stringEnd(code: string, at: number): number | null {
  const q = code[at];
  const close = code.startsWith(q.repeat(3), at) ? q.repeat(3) : q;
  let i = at + close.length;
  while (i < code.length) {
    if (code[i] === '\\') i += 2;
    else if (code.startsWith(close, i)) return i + close.length;
    else if (code[i] === '\n' && close.length === 1) return null;
    else i++;
  }
  return null;
}

/** The quote the file's one-line strings use, when at least three in four use it; else null. */
export function pyQuoteStyleOf(text: string): Quote | null {
  const strings = pyStrings(text)?.filter((s) => !s.triple);
  if (!strings || strings.length === 0) return null;
  const quoteOf = (s: PyString) => text[s.start + s.prefix.length];
  const single = strings.filter((s) => quoteOf(s) === "'").length;
  const double = strings.length - single;
  if (double * 4 >= strings.length * 3) return '"';
  if (single * 4 >= strings.length * 3) return "'";
  return null;
}

/** Literal text re-quoted: the old quote's escapes dropped, the new quote escaped. */
function requoteText(body: string, from: Quote, to: Quote): string {
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === '\\') {
      const next = body[i + 1] ?? '';
      out += next === from ? next : c + next;
      i++;
    } else out += c === to ? `\\${c}` : c;
  }
  return out;
}

/**
 * An f-string's body re-quoted: its text as any string's, its fields' strings in `to`
 * turned to the other quote (null when one cannot be: it holds that quote or a backslash).
 */
function requoteFString(body: string, from: Quote, to: Quote): string | null {
  const other: Quote = to === '"' ? "'" : '"';
  let out = '';
  let text = '';
  let depth = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (depth === 0) {
      if ((c === '{' || c === '}') && body[i + 1] === c) {
        text += c + c;
        i++;
      } else if (c === '{') {
        out += requoteText(text, from, to) + c;
        text = '';
        depth = 1;
      } else {
        text += c;
        if (c === '\\') text += body[++i] ?? '';
      }
    } else if (c === "'" || c === '"') {
      const close = body.indexOf(c, i + 1);
      if (close < 0) return null;
      const inner = body.slice(i + 1, close);
      if (c === to && (inner.includes(other) || inner.includes('\\'))) return null;
      out += c === to ? `${other}${inner}${other}` : body.slice(i, close + 1);
      i = close;
    } else {
      if (c === '{') depth++;
      else if (c === '}') depth--;
      out += c;
    }
  }
  return depth === 0 ? out + requoteText(text, from, to) : null;
}

/** One literal in `quote`, or as it was when it cannot be (a raw string holding that quote). */
function requote(literal: string, s: PyString, quote: Quote): string {
  const from = literal[s.prefix.length] as Quote;
  if (s.triple || from === quote) return literal;
  const body = literal.slice(s.prefix.length + 1, -1);
  if (/[rR]/.test(s.prefix))
    return body.includes(quote) || body.endsWith('\\') ? literal : `${s.prefix}${quote}${body}${quote}`;
  const requoted = /[fF]/.test(s.prefix) ? requoteFString(body, from, quote) : requoteText(body, from, quote);
  return requoted === null ? literal : `${s.prefix}${quote}${requoted}${quote}`;
}

/** Python `code` with each one-line string written in `quote`; unchanged when it does not lex. */
export function inPyQuotes(code: string, quote: Quote): string {
  const strings = pyStrings(code);
  if (!strings) return code;
  let out = '';
  let at = 0;
  for (const s of strings) {
    out += code.slice(at, s.start) + requote(code.slice(s.start, s.end), s, quote);
    at = s.end;
  }
  return out + code.slice(at);
}
