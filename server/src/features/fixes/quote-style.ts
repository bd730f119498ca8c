import type { FixAction, FixContext, TextChange } from './fix-model';
import { inPyQuotes, pyQuoteStyleOf } from './py-quotes';
import { indentUnitOf } from './reader-conventions';

/**
 * The fixes write JavaScript and TypeScript in one quote style (single, as prettier's
 * default), but the code they edit is often double-quoted (`import { Entity } from
 * "electrodb"`, `type: "string"`): a fix that added `type: 'string'` beside it left the
 * file in two styles, which the project's linter then reports. So every string literal a
 * fix writes into a JS/TS file takes the quote the file's own literals use, when the file
 * clearly uses one (at least three in four of its quoted strings); a file that mixes both
 * is left to the fix's style. Template literals and comments are left as they are. The
 * helpers a fix adds at the top level (the hash, a shard merge) are written in two-space
 * steps: in a file indented by four spaces or tabs they take the file's step.
 */

type Quote = "'" | '"';

const SCRIPT = /\.(m|c)?(j|t)sx?$/;
const PYTHON = /\.pyi?$/;

/** Each quoted string of `code` as [start, end) offsets; null when the code does not lex (an unterminated string). */
function quotedStrings(code: string): Array<[number, number]> | null {
  const out: Array<[number, number]> = [];
  // Brace depth at which each open `${` of a template literal closes back into the template.
  const templates: number[] = [];
  let depth = 0;
  let i = 0;
  const template = (): boolean => {
    // Inside a template literal's text, from i: to its end or the next `${`.
    while (i < code.length) {
      const c = code[i];
      if (c === '\\') i += 2;
      else if (c === '`') {
        i++;
        return true;
      } else if (c === '$' && code[i + 1] === '{') {
        templates.push(depth);
        depth++;
        i += 2;
        return true;
      } else i++;
    }
    return false;
  };
  while (i < code.length) {
    const c = code[i];
    if (c === '/' && code[i + 1] === '/') {
      const nl = code.indexOf('\n', i);
      i = nl < 0 ? code.length : nl;
    } else if (c === '/' && code[i + 1] === '*') {
      const close = code.indexOf('*/', i + 2);
      i = close < 0 ? code.length : close + 2;
    } else if (c === "'" || c === '"') {
      let j = i + 1;
      while (j < code.length && code[j] !== c && code[j] !== '\n') j += code[j] === '\\' ? 2 : 1;
      if (code[j] !== c) return null;
      out.push([i, j + 1]);
      i = j + 1;
    } else if (c === '`') {
      i++;
      if (!template()) return null;
    } else if (c === '{') {
      depth++;
      i++;
    } else if (c === '}') {
      depth--;
      i++;
      if (templates.length && templates[templates.length - 1] === depth) {
        templates.pop();
        if (!template()) return null;
      }
    } else i++;
  }
  return out;
}

/** The quote the file's own strings use, when at least three in four use it; else null. */
export function quoteStyleOf(text: string): Quote | null {
  const strings = quotedStrings(text);
  if (!strings || strings.length === 0) return null;
  const single = strings.filter(([s]) => text[s] === "'").length;
  const double = strings.length - single;
  if (double * 4 >= strings.length * 3) return '"';
  if (single * 4 >= strings.length * 3) return "'";
  return null;
}

/** One literal's body re-quoted: the other quote unescaped, this one escaped. */
function requote(literal: string, quote: Quote): string {
  const body = literal.slice(1, -1);
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === '\\') {
      const next = body[i + 1] ?? '';
      // `\'` in a single-quoted string is a plain `'` in a double-quoted one, and the reverse.
      out += next === literal[0] && next !== quote ? next : c + next;
      i++;
    } else out += c === quote ? `\\${c}` : c;
  }
  return `${quote}${out}${quote}`;
}

/** `code` with each quoted string written in `quote`; unchanged when it does not lex. */
export function inQuotes(code: string, quote: Quote): string {
  const strings = quotedStrings(code);
  if (!strings) return code;
  let out = '';
  let at = 0;
  for (const [s, e] of strings) {
    out += code.slice(at, s) + (code[s] === quote ? code.slice(s, e) : requote(code.slice(s, e), quote));
    at = e;
  }
  return out + code.slice(at);
}

/**
 * A top-level block a fix writes in two-space steps (the hash helper, a merge helper),
 * re-indented in the file's own step (four spaces, a tab). Blocks written in the file's
 * step already (the readers), and text inserted inside a function, are left as they are.
 */
export function inIndent(code: string, unit: string): string {
  if (unit === '  ' || !/^(export |async |function |const |class |\/\*\*)/m.test(code)) return code;
  // A doc comment's inner lines (` * ...`, ` */`) sit one space past their level's step.
  const indents = [...code.matchAll(/^( +)(?!\*)\S/gm)].map((m) => m[1].length);
  if (indents.length === 0 || Math.min(...indents) !== 2 || indents.some((n) => n % 2 !== 0)) return code;
  return code.replace(/^( +)(?=(\*)?)(?=\S)/gm, (spaces: string, _: string, star?: string) =>
    star && spaces.length % 2 === 1 ? `${unit.repeat((spaces.length - 1) / 2)} ` : unit.repeat(spaces.length / 2),
  );
}

/** The text a change writes into `file`, in the file's quotes (and, in JS/TS, its indentation step). */
type Restyle = (newText: string) => string;

function restylerOf(file: string, text: string | null): Restyle | null {
  if (!text) return null;
  if (PYTHON.test(file)) {
    const quote = pyQuoteStyleOf(text);
    return quote ? (t) => inPyQuotes(t, quote) : null;
  }
  const quote = quoteStyleOf(text);
  const unit = indentUnitOf(text, false);
  return (t) => inIndent(quote ? inQuotes(t, quote) : t, unit);
}

/** `code` for a new file, written in the quotes (and JS step) of `peerText`, the file it serves. */
export function styledLike(newFile: string, peerText: string | null, code: string): string {
  const style = restylerOf(newFile, peerText);
  return style ? style(code) : code;
}

/** An action whose changes write their strings and blocks in each file's style (JS, TS and Python). */
export function inFileQuotes(action: FixAction, ctx: FixContext): FixAction {
  const styled = (f: string) => SCRIPT.test(f) || PYTHON.test(f);
  const sameLanguage = (a: string, b: string) => PYTHON.test(a) === PYTHON.test(b);
  // A file the fix creates (a module of readers) is written in the style of the file it serves.
  const textOf = (file: string): string | null => {
    if (!styled(file)) return null;
    const own = ctx.textOf(file);
    if (own !== null) return own;
    const peer = action.changes.find((c) => c.file !== file && sameLanguage(c.file, file) && ctx.textOf(c.file));
    return peer ? ctx.textOf(peer.file) : null;
  };
  const styles = new Map<string, Restyle | null>();
  const styleOf = (file: string) => {
    if (!styles.has(file)) styles.set(file, restylerOf(file, textOf(file)));
    return styles.get(file)!;
  };
  let changed = false;
  const changes = action.changes.map((c): TextChange => {
    const style = styleOf(c.file);
    const newText = style ? style(c.newText) : c.newText;
    if (newText === c.newText) return c;
    changed = true;
    return { ...c, newText };
  });
  return changed ? { ...action, changes } : action;
}
