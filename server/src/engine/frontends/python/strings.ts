/**
 * Python strings as key templates: literals with their escapes and prefixes,
 * f-string interpolations, `%` formatting, `str.format` and `str.join`.
 */
import type { Node } from 'web-tree-sitter';
import { holeValue, namedValue, scalar, soleHole, templateOf, unknownValue } from '../evaluation';
import { type EvalContext } from '../../model/eval-context';
import type { KeyTemplate, TimeGranularity } from '../../model';
import { concat, literal } from '../../model/template';
import type { Value } from '../../model/value';
import { memberOf } from '../value-ops';
import { joinPaths } from '../alternatives';
import { argumentAt } from './argument-sources';

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', '0': '\0', a: '\x07', b: '\b', f: '\f', v: '\v' };

function unescape(text: string): string {
  return text.replace(
    /\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|N\{[^}]*\}|[0-7]{1,3}|\n|.)/g,
    (m, e: string) => {
      // `\UFFFFFFFF` is not a code point: keep the escape as written rather than throw.
      if (/^[xuU]/.test(e))
        return parseInt(e.slice(1), 16) <= 0x10ffff ? String.fromCodePoint(parseInt(e.slice(1), 16)) : m;
      if (/^[0-7]+$/.test(e) && e !== '0') return String.fromCodePoint(parseInt(e, 8));
      if (e === '\n') return '';
      return e.startsWith('N{') ? m : (ESCAPES[e] ?? e);
    },
  );
}

/** A string literal as a value: an f-string holding a value taken on some paths only is one too. */
export function stringValue(n: Node, ctx: EvalContext): Value {
  const values: Value[] = [];
  return joinPaths(scalar(n, stringTemplate(n, ctx, values)), ...values);
}

/** One string literal: its prefix says raw (`r`) or formatted (`f`); `values` collects what it interpolates. */
export function stringTemplate(n: Node, ctx: EvalContext, values?: Value[]): KeyTemplate {
  let prefix = '';
  const parts: KeyTemplate[] = [];
  for (const c of n.children) {
    if (!c) continue;
    if (c.type === 'string_start') prefix = c.text.replace(/['"]+$/, '').toLowerCase();
    else if (c.type === 'string_content') {
      const raw = prefix.includes('r') ? c.text : unescape(c.text);
      parts.push(literal(prefix.includes('f') ? raw.replace(/\{\{/g, '{').replace(/\}\}/g, '}') : raw));
    } else if (c.type === 'interpolation') parts.push(interpolation(c, ctx, values));
  }
  return concat(...parts);
}

/** `{x}`, `{n:02d}` (keeps the hole), `{now:%Y-%m-%d}` (a time formatted into a bucket). */
function interpolation(c: Node, ctx: EvalContext, values?: Value[]): KeyTemplate {
  const expr = c.childForFieldName('expression');
  if (!expr) return literal('');
  const v = ctx.evaluate(expr, ctx);
  if (v) values?.push(v);
  const spec = c.childForFieldName('format_specifier')?.text.replace(/^:/, '') ?? '';
  return templateOf(withSpec(v, spec, expr), expr);
}

export function withSpec(v: Value | null, spec: string, n: Node): Value | null {
  const h = v ? soleHole(v) : null;
  return h?.kind === 'time' && spec.includes('%') ? holeValue(n, { kind: 'time', time: strftimeGranularity(spec) }) : v;
}

/** A formatted time changes every second only when the format shows seconds. */
export function strftimeGranularity(format: string | null): TimeGranularity {
  return format !== null && /%[SfsTcXr]/.test(format) ? 'instant' : 'bucket';
}

/** `"%s#%02d" % (a, b)` and `"%(pk)s" % {"pk": x}`. */
export function percentFormat(n: Node, format: string, argsNode: Node | null, ctx: EvalContext): Value {
  const inner = argsNode?.type === 'parenthesized_expression' ? argsNode.namedChild(0) : argsNode;
  const positional =
    inner?.type === 'tuple'
      ? inner.namedChildren.filter((c): c is Node => !!c && c.type !== 'comment')
      : inner
        ? [inner]
        : [];
  const named = inner?.type === 'dictionary' ? ctx.evaluate(inner, ctx) : null;
  let next = 0;
  const parts: KeyTemplate[] = [];
  let last = 0;
  const re = /%(?:\(([^)]*)\))?[-#0 +]*(?:\*|\d+)?(?:\.(?:\*|\d+))?[hlL]?([diouxXeEfFgGcrsa%])/g;
  for (let m = re.exec(format); m; m = re.exec(format)) {
    parts.push(literal(format.slice(last, m.index)));
    last = m.index + m[0].length;
    if (m[2] === '%') parts.push(literal('%'));
    else if (m[1] !== undefined) {
      const v = memberOf(named, m[1]);
      parts.push(v?.kind === 'scalar' ? v.template : templateOf(null, n));
    } else {
      const arg = positional[next++];
      parts.push(arg ? templateOf(ctx.evaluate(arg, ctx), arg) : templateOf(null, n));
    }
  }
  parts.push(literal(format.slice(last)));
  return scalar(n, concat(...parts));
}

/** `"{}#{:02d}".format(a, b)`, `"{0}#{name}".format(a, name=b)`. */
export function formatMethod(n: Node, format: string, ctx: EvalContext): Value {
  const parts: KeyTemplate[] = [];
  let auto = 0;
  let last = 0;
  const re = /\{\{|\}\}|\{([^{}!:]*)(?:![rsa])?(?::([^{}]*))?\}/g;
  for (let m = re.exec(format); m; m = re.exec(format)) {
    parts.push(literal(format.slice(last, m.index)));
    last = m.index + m[0].length;
    if (m[0] === '{{' || m[0] === '}}') {
      parts.push(literal(m[0][0]));
      continue;
    }
    const field = m[1].split(/[.[]/)[0];
    const arg =
      field === ''
        ? argumentAt(n, auto++, null)
        : /^\d+$/.test(field)
          ? argumentAt(n, Number(field), null)
          : argumentAt(n, -1, field);
    const v = arg && field.length === m[1].length ? withSpec(ctx.evaluate(arg, ctx), m[2] ?? '', arg) : null;
    parts.push(arg ? templateOf(v ?? namedValue(arg, m[1].split('.').pop() ?? ''), arg) : templateOf(null, n));
  }
  parts.push(literal(format.slice(last)));
  return scalar(n, concat(...parts));
}

/** `"#".join([a, b])`. */
export function joinValue(n: Node, separator: string, ctx: EvalContext): Value {
  const items = ctx.evaluate(argumentAt(n, 0, null), ctx);
  if (items?.kind !== 'array') return unknownValue(n);
  const parts = items.items.flatMap((v, i) => [
    literal(i === 0 ? '' : separator),
    v.kind === 'scalar' ? v.template : templateOf(null, n),
  ]);
  return scalar(n, concat(...parts));
}
