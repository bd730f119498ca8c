import { type Access, literalText, render } from '../../engine';
import { offsetAt } from './apply';
import { libraryKeyValue } from './cache-library';

/**
 * The key a cached read's entry is stored under, as code: a string literal when the read
 * is the same on every call (a constant key), and an expression of the key's value when
 * the key takes a few values (SL003, `STATUS#${status}`): one entry per value, so a read
 * of `closed` never gets the entry of `open`.
 */

/** `tickets · byStatus · status = ` and ` · Query · sk = ORDER`: the entry's text around the partition key's value. */
function aroundValue(a: Access): { before: string; after: string } {
  const table = a.table.kind === 'unknown' ? '' : `${a.table.name} · `;
  const index = a.index ? `${a.index} · ` : '';
  const sort =
    a.sortCondition ?? (a.sortKey ? { attribute: a.sortKey.attribute, operator: '=', operands: [a.sortKey] } : null);
  const sk = sort
    ? ` · ${sort.attribute} ${sort.operator} ${sort.operands.map((o) => render(o.template)).join(' AND ')}`
    : '';
  return { before: `${table}${index}${a.partitionKey!.attribute} = `, after: ` · ${a.operation}${sk}` };
}

const quoteJs = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/** Text for inside a JavaScript template literal. */
const inTemplate = (s: string) => s.replace(/[\\`]/g, '\\$&').replace(/\$\{/g, '\\${');

/**
 * A key value's text when it is the same on every call, else null. A value judged on some
 * paths only (`header ?? 'free'` read as `PLAN#free`, `someOfPaths`) is not: its other paths
 * give other items, and one entry under the judged value would serve them all its item.
 */
export const sameOnEveryCall = (v: { template: Parameters<typeof literalText>[0]; someOfPaths?: boolean }) =>
  v.someOfPaths ? null : literalText(v.template);

/** The key as code, and as text for names and titles (`STATUS#{status}`, `global-config`). */
export type CacheKey = { code: string; text: string } | { blocked: string };

/**
 * The cache key as code in the file's language, one no other cached read of the file uses
 * (two reads of one item may ask for different attributes): a literal for a constant key,
 * else the key's value expression as the call writes it, evaluated a second time for the
 * key, so it must be a plain read of names (no call, no assignment).
 */
export function cacheKeyCode(a: Access, text: string, call: { start: number; end: number }): CacheKey {
  const python = a.language === 'python';
  const { before, after } = aroundValue(a);
  const constant = sameOnEveryCall(a.partitionKey!);
  if (constant !== null) {
    const quote = (k: string) => (python ? JSON.stringify(k) : quoteJs(k));
    const key = `${before}${render(a.partitionKey!.template)}${after}`;
    return { code: quote(free(text, key, quote)), text: constant };
  }
  const value = a.library ? libraryKeyValue(a, text, call) : valueInCall(a, text, call);
  if (!value)
    return {
      blocked: `the key's value is not written in the ${a.operation} call as a plain name or template, so the cache cannot keep one entry per value`,
    };
  const code = (suffix: string) => (python ? pythonKey : jsKey)(before, value, after + suffix);
  for (let n = 1; ; n++) {
    const c = code(n === 1 ? '' : ` #${n}`);
    if (!text.includes(c)) return { code: c, text: shownValue(value, python) };
  }
}

/** `STATUS#{status}` for `` `STATUS#${status}` `` or `f"STATUS#{status}"`, `{status}` for a name. */
function shownValue(value: string, python: boolean): string {
  const quoted = (python ? /^f?(["'])(.*)\1$/ : /^([`'"])(.*)\1$/).exec(value);
  if (!quoted) return `{${value}}`;
  return python ? quoted[2] : quoted[2].replace(/\$\{/g, '{');
}

function free(text: string, key: string, quote: (k: string) => string): string {
  const used = (k: string) => text.includes(JSON.stringify(k)) || text.includes(quote(k));
  if (!used(key)) return key;
  for (let n = 2; ; n++) if (!used(`${key} #${n}`)) return `${key} #${n}`;
}

/** Names, members, literal subscripts, and templates or f-strings of them: reading them twice reads the same. */
const PLAIN_JS = /^(?!.*(\+\+|--|\bawait\b|\byield\b|\bnew\b|=))[\w$.\s'"`#{}[\]:/|-]+$/;
const PLAIN_PY = /^(?!.*(:=|\bawait\b|\blambda\b|\byield\b))f?[\w.\s'"#{}[\]:/|-]+$/;

/**
 * The partition key's value expression as written inside the call, whole: the value of its
 * property or entry (`':s': status`, `"pk": f"TIER#{tier}"`, a shorthand `{ pk }`) or the
 * argument of a boto3 condition (`Key("pk").eq(pk)`). Null when the key enters the call
 * from a request built elsewhere, or when the expression is not a plain read of names.
 */
function valueInCall(a: Access, text: string, call: { start: number; end: number }): string | null {
  const use = a.partitionKey!.use;
  const start = offsetAt(text, use.startLine, use.startColumn);
  const end = offsetAt(text, use.endLine, use.endColumn);
  if (start < call.start || end > call.end) return null;
  const written = text.slice(start, end).trim();
  const m =
    /^(?:'[^']*'|"[^"]*"|[\w$]+)\s*:\s*([\s\S]+)$/.exec(written) ??
    /^Key\(\s*(?:'[^']*'|"[^"]*")\s*\)\.eq\(([\s\S]+)\)$/.exec(written);
  // The low-level client's typed value (`{"S": country}`, `{ S: status }`): the key is what it holds.
  const typed = /^\{\s*(?:"S"|'S'|S)\s*:\s*([^{}]+?)\s*\}$/.exec((m ? m[1] : written).trim());
  const value = (typed ? typed[1] : m ? m[1] : written).trim();
  if (value.includes('(') || value.includes('\n')) return null;
  return (a.language === 'python' ? PLAIN_PY : PLAIN_JS).test(value) ? value : null;
}

/**
 * `` `tickets · status = STATUS#${status} · Query` ``: one template, the value's own template
 * spliced in when it is one (not `` ${`STATUS#${status}`} ``).
 */
function jsKey(before: string, value: string, after: string): string {
  const template = /^`([^`]*)`$/.exec(value);
  return `\`${inTemplate(before)}${template ? template[1] : `\${${value}}`}${inTemplate(after)}\``;
}

/**
 * `f"tickets · status = STATUS#{status} · Query"`: one f-string, the value's own spliced in
 * when it is one; a value that holds a double quote (which an f-string's expression may not
 * reuse before Python 3.12) is joined to the text instead.
 */
function pythonKey(before: string, value: string, after: string): string {
  const text = (s: string) => JSON.stringify(s).slice(1, -1).replace(/[{}]/g, '$&$&');
  const fString = /^[fF]"([^"\\]*)"$/.exec(value);
  if (fString) return `f"${text(before)}${fString[1]}${text(after)}"`;
  if (!/["\\]/.test(value)) return `f"${text(before)}{${value}}${text(after)}"`;
  return `${JSON.stringify(before)} + str(${value}) + ${JSON.stringify(after)}`;
}
