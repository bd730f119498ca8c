import {
  type Access,
  type FixDescriptor,
  type SourceLanguage,
  type SourceRange,
  type Span,
  spanOf,
  walk,
} from '../../engine';
import { lineOf, textIn } from './apply';
import type { FixContext, TextChange } from './fix-model';
import { enclosingFunction, nodeAt, sameSpan, withTree, within } from './syntax';
import { hoistShard } from './hoisted-shard';
import { projectLineWidth } from './line-width';
import { indentUnitOf } from './reader-conventions';

/**
 * Appending a shard part to a key expression, in the expression's own syntax:
 *
 *   "BOARD#global"          → `BOARD#global#${shard}`        f"BOARD#global#{shard}"
 *   `LOGS#${day}`           → `LOGS#${day}#${shard}`          f"LOGS#{day}"  → f"LOGS#{day}#{shard}"
 *   'X#' + 'y'              → 'X#' + `y#${shard}`             (the last literal only)
 *   GLOBAL_BOARD, "{}".format(a), anything else
 *                           → `${GLOBAL_BOARD}#${shard}`      f"{GLOBAL_BOARD}#{shard}"
 */
export function appendShard(language: SourceLanguage, expr: string, separator: string, shard: string): string {
  return language === 'python' ? appendPython(expr, separator, shard) : appendJs(expr, separator, shard);
}

/** A single string literal: its prefix (Python), quote and body; null for anything else (`'a' + 'b'`). */
export function stringLiteral(
  language: SourceLanguage,
  text: string,
): { prefix: string; quote: string; body: string } | null {
  const m =
    language === 'python'
      ? /^([rRuUfFbB]{0,2})('''|"""|'|")([\s\S]*)\2$/.exec(text)
      : /^()(['"`])([\s\S]*)\2$/.exec(text);
  if (!m || /[bB]/.test(m[1])) return null;
  const [, prefix, quote, body] = m;
  for (let i = 0; i < body.length; i++) {
    if (body[i] === '\\') i++;
    // A quote inside: two literals joined (`'a' + 'b'`) or a template nested in `${}`.
    else if (body.startsWith(quote, i)) return null;
  }
  return { prefix, quote, body };
}

function appendJs(expr: string, sep: string, shard: string): string {
  const e = expr.trim();
  const lit = stringLiteral('javascript', e);
  if (lit?.quote === '`') return `${e.slice(0, -1)}${sep}\${${shard}}\``;
  if (lit) {
    // Escapes valid in '...' are valid in `...`; a backtick or `${` must be escaped there.
    const body = lit.body
      .replace(/\\(['"])/g, '$1')
      .replace(/`/g, '\\`')
      .replace(/\$\{/g, '\\${');
    return `\`${body}${sep}\${${shard}}\``;
  }
  return `\`\${${e}}${sep}\${${shard}}\``;
}

function appendPython(expr: string, sep: string, shard: string): string {
  const e = expr.trim();
  const lit = stringLiteral('python', e);
  // Before Python 3.12 an f-string's expression may not hold its own quote or a backslash.
  const nestable = (q: string) => !shard.includes(q[0]) && !shard.includes('\\');
  if (lit && nestable(lit.quote)) {
    const prefix = lit.prefix.replace(/[uU]/, '');
    if (/[fF]/.test(prefix)) return `${e.slice(0, -lit.quote.length)}${sep}{${shard}}${lit.quote}`;
    const body = lit.body.replace(/\{/g, '{{').replace(/\}/g, '}}');
    return `f${prefix}${lit.quote}${body}${sep}{${shard}}${lit.quote}`;
  }
  if (!e.includes('\\') && !lit) {
    if (!e.includes('"') && nestable('"')) return `f"{${e}}${sep}{${shard}}"`;
    if (!e.includes("'") && nestable("'")) return `f'{${e}}${sep}{${shard}}'`;
  }
  return `${e} + "${sep}" + str(${shard})`;
}

const isLiteralText = (language: SourceLanguage, t: string) => stringLiteral(language, t) !== null;

/**
 * The text change that appends `shard` to the key at `target`. When the key's last
 * literal (`at`) closes the target (`'X#' + 'y'`), only that literal is rewritten,
 * so the expression keeps its shape.
 */
export function keyChange(
  ctx: FixContext,
  language: SourceLanguage,
  target: SourceRange,
  at: SourceRange | null,
  separator: string,
  shard: string,
): TextChange | null {
  const text = ctx.textOf(target.file);
  if (text === null) return null;
  const whole = textIn(text, target.span);
  let place = target;
  if (!isLiteralText(language, whole.trim()) && at && at.file === target.file && within(at.span, target.span)) {
    const atText = textIn(text, at.span);
    const endsTogether = at.span.endLine === target.span.endLine && at.span.endColumn === target.span.endColumn;
    if (endsTogether && isLiteralText(language, atText.trim())) place = at;
  }
  const old = textIn(text, place.span);
  const newText = appendShard(language, old, separator, shard);
  // `{ queue, jobId }`: a shorthand property becomes `queue: <value>`.
  const shorthand = withTree(
    place.file,
    text,
    (tree) => nodeAt(tree, place.span)?.type === 'shorthand_property_identifier',
  );
  return { file: place.file, span: place.span, newText: shorthand ? `${old}: ${newText}` : newText };
}

/**
 * `keyChange`, with the shard computed on a line of its own before the statement when the
 * key's line would grow past the project's width (`hoisted-shard.ts`). `taken`: the names
 * the fix's other keys already declared there.
 */
export function keyChanges(
  ctx: FixContext,
  language: SourceLanguage,
  target: SourceRange,
  at: SourceRange | null,
  separator: string,
  shard: string,
  taken: Set<string>,
): TextChange[] | null {
  const inPlace = keyChange(ctx, language, target, at, separator, shard);
  const text = ctx.textOf(target.file);
  if (!inPlace || text === null) return inPlace && [inPlace];
  const width = projectLineWidth(target.file, text);
  if (longestLine(text, inPlace) <= width) return [inPlace];
  const layout = { width, unit: indentUnitOf(text, language === 'python') };
  const hoist = hoistShard(text, language, { file: inPlace.file, span: inPlace.span }, shard, taken, layout);
  const named = hoist && keyChange(ctx, language, target, at, separator, hoist.name);
  return hoist && named ? [hoist.declaration, named] : [inPlace];
}

/** The longest of the lines a change touches, once made. */
function longestLine(text: string, c: TextChange): number {
  const before = lineOf(text, c.span.startLine).slice(0, c.span.startColumn);
  const after = lineOf(text, c.span.endLine).slice(c.span.endColumn);
  return Math.max(...(before + c.newText + after).split('\n').map((l) => l.replace(/\t/g, '  ').length));
}

/**
 * Where a random suffix may go. A local declaration (`const pk = "X"` inside the
 * writing function) is evaluated on every call, so when every use of it is the key of
 * a write, the declaration is rewritten and all those writes are fixed at once. A
 * module constant is evaluated once per process: a random part there would pick one
 * shard per process, so the suffix goes at the use site instead.
 */
export function randomShardTarget(
  ctx: FixContext,
  a: Access,
  d: Extract<FixDescriptor, { kind: 'add-shard-suffix' }>,
): { target: SourceRange; at: SourceRange | null } | null {
  const pk = a.partitionKey!;
  const text0 = ctx.textOf(a.file);
  // The key's value is a parameter's default (`def record(payload, source="web")`): never
  // rewritten (see `isParameter`); the suffix goes on the value where the request uses
  // it (`"source": source`), or there is no fix.
  const atDefault = text0 ? withTree(a.file, text0, (tree) => isParameter(nodeAt(tree, pk.span))) : false;
  if (atDefault) {
    const value = text0 ? withTree(a.file, text0, (tree) => useValue(tree, pk.use)) : null;
    return value ? { target: { file: a.file, span: value }, at: null } : null;
  }
  const use: SourceRange = { file: a.file, span: pk.span };
  const decl = pk.via[0];
  if (!decl || decl.file !== a.file) return { target: use, at: d.at };
  const text = ctx.textOf(a.file);
  const writes = (ctx.analysisOf(a.file)?.accesses ?? []).filter((x) => x.kind === 'write' && x.partitionKey);
  if (!text) return { target: use, at: d.at };
  const local = withTree(a.file, text, (tree) => {
    const declNode = nodeAt(tree, decl.span);
    // A parameter's default is never the target: Python evaluates it once, when the `def`
    // runs (every write would get the same shard), and in both languages a caller that
    // passes the value bypasses it. The suffix goes where the key is used.
    if (isParameter(declNode)) return false;
    const fn = enclosingFunction(declNode);
    if (!fn || enclosingFunction(nodeAt(tree, pk.span))?.startIndex !== fn.startIndex) return false;
    // Every other mention of the name in the function must be the key of a write.
    for (const n of walk(fn)) {
      if (n.type !== 'identifier' || n.text !== decl.name) continue;
      const s = spanOf(n);
      if (within(s, decl.span) && s.startLine === decl.span.startLine && s.startColumn === decl.span.startColumn)
        continue;
      if (!writes.some((w) => sameSpan(w.partitionKey!.span, s))) return false;
    }
    return true;
  });
  return local ? { target: { file: decl.file, span: decl.valueSpan }, at: d.at } : { target: use, at: d.at };
}

/** Parameter nodes with a default: Python `x=1` / `x: str = "a"`, JS `x = 1`, TS `x: string = "a"`. */
const PARAMETERS = new Set([
  'default_parameter',
  'typed_default_parameter',
  'assignment_pattern',
  'required_parameter',
  'optional_parameter',
]);

export function isParameter(n: ReturnType<typeof nodeAt>): boolean {
  for (let p = n; p; p = p.parent) {
    if (PARAMETERS.has(p.type)) return true;
    if (p.type === 'parameters' || p.type === 'formal_parameters' || /function|statement|block/.test(p.type)) break;
  }
  return false;
}

/** The value of the pair or keyword argument at `use` (`"source": source`), unless that is a default too. */
export function useValue(tree: Parameters<typeof nodeAt>[0], use: Span): Span | null {
  const n = nodeAt(tree, use);
  const value = n && /^(pair|keyword_argument)$/.test(n.type) ? n.childForFieldName('value') : null;
  return value && !isParameter(value) ? spanOf(value) : null;
}
