import type { Node } from 'web-tree-sitter';
import {
  deeper,
  holeValue,
  importedValue,
  loopElementValue,
  namedValue,
  numberOf,
  recordNode,
  scalar,
  shardValue,
  shifted,
  soleHole,
  unknownValue,
  type EvalContext,
} from '../evaluation';
import type { KeyTemplate, TimeGranularity } from '../model';
import { spanOf } from '../span';
import { concat, literal, literalText, shardRange } from '../template';
import type { ConditionClause, Value } from '../value';
import { argumentAt, argumentSources, attributeValueNode, methodNode, resolve, type Binding } from './scope';

/**
 * Evaluates a Python expression into a Value: dicts into objects, lists and tuples
 * into arrays, strings, f-strings and `%`/`.format` formatting into key templates
 * whose holes say where each part comes from. Names are followed to their
 * bindings in the file; every step goes through `deeper` so evaluation stays finite.
 */
export function evaluate(n: Node | null, ctx: EvalContext): Value | null {
  if (!n) return null;
  // `self.table` is bound by assignments elsewhere in the class: an edit naming it must re-evaluate.
  recordNode(
    n,
    n.type === 'identifier' ? n.text : n.type === 'attribute' ? n.childForFieldName('attribute')?.text : undefined,
  );
  const next = deeper(ctx);
  if (!next) return unknownValue(n);
  return evaluateNode(n, next);
}

function evaluateNode(n: Node, ctx: EvalContext): Value {
  switch (n.type) {
    case 'parenthesized_expression':
    case 'await':
      return evaluate(n.namedChild(0), ctx) ?? unknownValue(n);
    case 'string':
      return scalar(n, stringTemplate(n, ctx));
    case 'concatenated_string':
      return scalar(
        n,
        concat(...n.namedChildren.map((c) => (c?.type === 'string' ? stringTemplate(c, ctx) : literal('')))),
      );
    case 'integer':
    case 'float':
      return scalar(n, literal(n.text.replace(/_/g, '')));
    case 'true':
    case 'false':
    case 'none':
      return scalar(n, literal(n.text));
    case 'unary_operator':
      return /^-\s*\d/.test(n.text) && numberOf(evaluate(n.namedChild(0), ctx)) !== null
        ? scalar(n, literal(n.text.replace(/\s+|_/g, '')))
        : unknownValue(n);
    case 'dictionary':
      return dictValue(n, ctx);
    case 'list':
    case 'tuple':
    case 'set':
    case 'expression_list':
      return { kind: 'array', items: itemsOf(n, ctx), span: spanOf(n) };
    case 'identifier':
      return identifierValue(n, ctx);
    case 'attribute':
      return attributeValue(n, ctx);
    case 'subscript':
      return subscriptValue(n, ctx);
    case 'binary_operator':
      return binaryValue(n, ctx);
    case 'conditional_expression':
      return choiceValue(n, [n.namedChild(0), n.namedChild(2)], ctx);
    case 'boolean_operator':
      return choiceValue(n, [n.childForFieldName('left'), n.childForFieldName('right')], ctx);
    case 'comparison_operator':
    case 'not_operator':
      return holeValue(n, { kind: 'low-cardinality' });
    case 'call':
      return callValue(n, ctx);
    case 'assignment':
      return evaluate(n.childForFieldName('right'), ctx) ?? unknownValue(n);
    case 'named_expression':
      return evaluate(n.childForFieldName('value'), ctx) ?? unknownValue(n);
    default:
      return unknownValue(n);
  }
}

/** The key template of a value; dicts and lists inside a key are unknown parts. */
export function templateOf(v: Value | null, n: Node): KeyTemplate {
  const s = v?.kind === 'scalar' ? v : unknownValue(n);
  return s.kind === 'scalar' ? s.template : literal('');
}

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

/** One string literal: its prefix says raw (`r`) or formatted (`f`). */
function stringTemplate(n: Node, ctx: EvalContext): KeyTemplate {
  let prefix = '';
  const parts: KeyTemplate[] = [];
  for (const c of n.children) {
    if (!c) continue;
    if (c.type === 'string_start') prefix = c.text.replace(/['"]+$/, '').toLowerCase();
    else if (c.type === 'string_content') {
      const raw = prefix.includes('r') ? c.text : unescape(c.text);
      parts.push(literal(prefix.includes('f') ? raw.replace(/\{\{/g, '{').replace(/\}\}/g, '}') : raw));
    } else if (c.type === 'interpolation') parts.push(interpolation(c, ctx));
  }
  return concat(...parts);
}

/** `{x}`, `{n:02d}` (keeps the hole), `{now:%Y-%m-%d}` (a time formatted into a bucket). */
function interpolation(c: Node, ctx: EvalContext): KeyTemplate {
  const expr = c.childForFieldName('expression');
  if (!expr) return literal('');
  const v = evaluate(expr, ctx);
  const spec = c.childForFieldName('format_specifier')?.text.replace(/^:/, '') ?? '';
  return templateOf(withSpec(v, spec, expr), expr);
}

function withSpec(v: Value | null, spec: string, n: Node): Value | null {
  const h = v ? soleHole(v) : null;
  return h?.kind === 'time' && spec.includes('%') ? holeValue(n, { kind: 'time', time: strftimeGranularity(spec) }) : v;
}

/** A formatted time changes every second only when the format shows seconds. */
function strftimeGranularity(format: string | null): TimeGranularity {
  return format !== null && /%[SfsTcXr]/.test(format) ? 'instant' : 'bucket';
}

function dictValue(n: Node, ctx: EvalContext): Value {
  const entries: Array<[string, Value]> = [];
  for (const c of n.namedChildren) {
    if (c?.type === 'pair') {
      const k = c.childForFieldName('key');
      const v = c.childForFieldName('value');
      if (k && v) entries.push([keyName(k, ctx), evaluate(v, ctx) ?? unknownValue(v)]);
    } else if (c?.type === 'dictionary_splat') {
      // `{**defaults, "pk": x}`: merge what we can see; later keys win.
      const v = evaluate(c.namedChild(0), ctx);
      if (v?.kind === 'object') entries.push(...v.entries);
    }
  }
  return { kind: 'object', entries, span: spanOf(n) };
}

/** A dict key's text; a key that is not a known string reads as `[expr]`. */
function keyName(k: Node, ctx: EvalContext): string {
  const v = evaluate(k, ctx);
  const text = v?.kind === 'scalar' ? literalText(v.template) : null;
  return text ?? `[${k.text}]`;
}

function itemsOf(n: Node, ctx: EvalContext): Value[] {
  return n.namedChildren.flatMap((c) => {
    if (!c || c.type === 'comment') return [];
    if (c.type === 'list_splat') {
      const inner = evaluate(c.namedChild(0), ctx);
      return inner?.kind === 'array' ? inner.items : [];
    }
    return [evaluate(c, ctx) ?? unknownValue(c)];
  });
}

function identifierValue(n: Node, ctx: EvalContext): Value {
  const b = resolve(n);
  if (!b) return namedValue(n, n.text);
  switch (b.kind) {
    case 'value':
      return evaluate(b.node, ctx) ?? unknownValue(n);
    case 'augmented':
      return augmentedValue(n, b.node, ctx);
    case 'param':
      return paramValue(n, b, ctx) ?? namedValue(n, n.text);
    case 'loop':
      return loopValue(n, b.iter, b.path, ctx) ?? namedValue(n, n.text);
    case 'import':
      return (b.name ? importedValue(n, b.module, b.name, ctx) : null) ?? namedValue(n, n.text);
    default:
      return namedValue(n, n.text);
  }
}

/** `pk += suffix`: the value the name had before, joined with the right side. */
function augmentedValue(n: Node, a: Node, ctx: EvalContext): Value {
  const left = a.childForFieldName('left');
  const op = a.childForFieldName('operator')?.text;
  const prev = left ? evaluate(left, ctx) : null;
  const right = evaluate(a.childForFieldName('right'), ctx);
  if (op === '+=' && prev?.kind === 'scalar' && right?.kind === 'scalar') {
    const sum =
      numberOf(prev) !== null && numberOf(right) !== null
        ? literal(String(numberOf(prev)! + numberOf(right)!))
        : concat(prev.template, right.template);
    return scalar(a, sum);
  }
  return namedValue(n, n.text);
}

/**
 * A parameter's value: the first argument in this file that says something, or each
 * element of what the function is mapped over (`executor.map(query_shard, range(1, 11))`).
 */
function paramValue(n: Node, b: Extract<Binding, { kind: 'param' }>, ctx: EvalContext): Value | null {
  for (const source of argumentSources(b.fn, b.param)) {
    if (source.element) {
      const v = elementValue(n, source.node, ctx);
      if (v) return v;
      continue;
    }
    const v = evaluate(source.node, ctx);
    if (v && (soleHole(v)?.kind !== 'unknown' || ENV_ACCESS.test(soleHole(v)!.source))) return v;
  }
  return null;
}

/** An environment variable read: unknown, but its source names the variable (a table name). */
const ENV_ACCESS = /(^|\.)(environ\[|environ\.get\(|getenv\()/;

/** A loop target: the element of its iterable, or a part of it for `for i, x in enumerate(xs)`. */
function loopValue(n: Node, iter: Node, path: number[], ctx: EvalContext): Value | null {
  if (path.length === 0) return elementValue(n, iter, ctx);
  const callee = iter.type === 'call' ? iter.childForFieldName('function')?.text : null;
  const arg = (i: number) => argumentAt(iter, i, null);
  if (callee === 'enumerate' && path.length === 1) {
    if (path[0] === 1) return elementValue(n, arg(0), ctx);
    const items = iterableItems(arg(0), ctx);
    const start = numberOf(evaluate(argumentAt(iter, 1, 'start'), ctx)) ?? 0;
    return shardValue(n, { method: 'loop', values: items?.items ? shardRange(start, items.items.length) : null });
  }
  if (callee === 'zip' && path.length === 1) return elementValue(n, arg(path[0]), ctx);
  return null;
}

/** The value of one element of an iterable, as a reader's loop sees it. */
function elementValue(n: Node, iter: Node | null, ctx: EvalContext): Value | null {
  const items = iterableItems(iter, ctx);
  if (!items) return null;
  return items.items
    ? loopElementValue(n, items.items, items.generated)
    : shardValue(n, { method: 'loop', values: null });
}

interface Items {
  /** Null for a `range` whose bound is not known. */
  items: Value[] | null;
  generated: boolean;
}

/** The elements of `range(...)`, a list or tuple, or a name bound to one. */
function iterableItems(n: Node | null, ctx: EvalContext): Items | null {
  const next = n ? deeper(ctx) : null;
  if (!n || !next) return null;
  if (n.type === 'parenthesized_expression') return iterableItems(n.namedChild(0), next);
  if (n.type === 'identifier') {
    const b = resolve(n);
    return b?.kind === 'value' ? iterableItems(b.node, next) : null;
  }
  if (n.type === 'call') {
    const callee = n.childForFieldName('function')?.text;
    if (callee === 'range') return rangeItems(n, next);
    if (/^(list|tuple|sorted|reversed|set|frozenset)$/.test(callee ?? ''))
      return iterableItems(argumentAt(n, 0, null), next);
    return null;
  }
  const v = evaluate(n, next);
  return v?.kind === 'array' ? { items: v.items, generated: false } : null;
}

/** `range(n)`, `range(a, b)`, `range(a, b, step)` as shard numbers. */
function rangeItems(n: Node, ctx: EvalContext): Items {
  const nums = [0, 1, 2].map((i) =>
    argumentAt(n, i, null) ? numberOf(evaluate(argumentAt(n, i, null), ctx)) : undefined,
  );
  const [a, b, step] = nums[1] === undefined ? [0, nums[0], 1] : [nums[0], nums[1], nums[2] ?? 1];
  if (a === null || a === undefined || b === null || b === undefined || !step || step < 0)
    return { items: null, generated: true };
  const values = shardRange(0, Math.ceil((b - a) / step))?.map((i) => a + i * step) ?? null;
  return { items: values?.map((x) => scalar(n, literal(String(x)))) ?? null, generated: true };
}

const TIME_PARTS = /^(year|month|day|hour|minute|isocalendar|weekday)$/;

function attributeValue(n: Node, ctx: EvalContext): Value {
  const obj = n.childForFieldName('object');
  const attr = n.childForFieldName('attribute')?.text ?? '';
  if (!obj) return unknownValue(n);
  const assigned = attributeValueNode(n);
  if (assigned) return evaluate(assigned, ctx) ?? unknownValue(n);
  // `Status.OPEN` (and its `.value`): an enum member is one fixed value.
  if (/^[A-Z][A-Za-z0-9]*$/.test(obj.text) && /^[A-Z][A-Z0-9_]*$/.test(attr)) return scalar(n, literal(n.text));
  if (/^(value|name)$/.test(attr) && /^[A-Z][A-Za-z0-9]*\.[A-Z][A-Z0-9_]*$/.test(obj.text))
    return scalar(n, literal(obj.text));
  if (obj.type === 'identifier' && /^(self|cls)$/.test(obj.text)) return namedValue(n, attr);
  const base = evaluate(obj, ctx);
  if (base?.kind === 'object') {
    const found = base.entries.filter(([k]) => k === attr).pop();
    if (found) return found[1];
  }
  const h = base ? soleHole(base) : null;
  if (h?.kind === 'time' && TIME_PARTS.test(attr)) return holeValue(n, { kind: 'time', time: 'bucket' });
  if ((h?.kind === 'random' || h?.kind === 'time') && /^(hex|int|urn|bytes)$/.test(attr)) return base!;
  return namedValue(n, attr);
}

const TYPED = /^(S|N|B|BOOL|SS|NS|BS)$/;

function subscriptValue(n: Node, ctx: EvalContext): Value {
  const obj = n.childForFieldName('value');
  const index = n.childForFieldName('subscript');
  if (!obj || !index) return unknownValue(n);
  // `os.environ["TABLE"]`: an unknown value whose source names the variable.
  if (/(^|\.)environ$/.test(obj.text)) return unknownValue(n);
  if (index.type === 'slice') return sliceValue(n, obj, index, ctx);
  const base = evaluate(obj, ctx);
  const key = index.type === 'string' ? literalText(stringTemplate(index, ctx)) : null;
  if (base?.kind === 'array') {
    const i = numberOf(evaluate(index, ctx));
    const item = i === null ? undefined : base.items[i < 0 ? base.items.length + i : i];
    if (item) return item;
    const idx = evaluate(index, ctx);
    return idx && soleHole(idx)?.kind === 'shard' ? idx : loopElementValue(n, base.items, false);
  }
  if (base?.kind === 'object' && key !== null) {
    const found = base.entries.filter(([k]) => k === key).pop();
    if (found) return found[1];
  }
  if (key === null) return unknownValue(n);
  // `record["NewImage"]["pk"]["S"]` is named by the attribute, not by its type tag.
  const outer = obj.type === 'subscript' ? obj.childForFieldName('subscript') : null;
  const name = TYPED.test(key) && outer?.type === 'string' ? literalText(stringTemplate(outer, ctx)) : key;
  return namedValue(n, name ?? key);
}

/** `x[a:b]`: a date cut from a timestamp (`[:10]`, `[:13]`) is a bucket; a literal is cut. */
function sliceValue(n: Node, obj: Node, slice: Node, ctx: EvalContext): Value {
  const bounds: Array<Node | null> = [null, null];
  let part = 0;
  for (const c of slice.children) {
    if (c?.type === ':') part++;
    else if (c && part < 2) bounds[part] = c;
  }
  const [start, end] = bounds.map((b) => (b ? numberOf(evaluate(b, ctx)) : null));
  const base = evaluate(obj, ctx);
  const h = base ? soleHole(base) : null;
  if (h?.kind === 'time')
    return holeValue(n, { kind: 'time', time: end !== null && end >= 0 && end < 19 ? 'bucket' : h.time });
  const text = base?.kind === 'scalar' ? literalText(base.template) : null;
  if (text !== null && (start !== null || bounds[0] === null) && (end !== null || bounds[1] === null)) {
    return scalar(n, literal(text.slice(start ?? 0, end ?? undefined)));
  }
  return base?.kind === 'scalar' && h ? holeValue(n, { ...h }) : unknownValue(n);
}

const ARITHMETIC: Record<string, (a: number, b: number) => number> = {
  '+': (a, b) => a + b,
  '-': (a, b) => a - b,
  '*': (a, b) => a * b,
  '//': (a, b) => Math.floor(a / b),
  '%': (a, b) => ((a % b) + b) % b,
};

function binaryValue(n: Node, ctx: EvalContext): Value {
  const op = n.childForFieldName('operator')?.text ?? '';
  const left = evaluate(n.childForFieldName('left'), ctx);
  const leftText = left?.kind === 'scalar' ? literalText(left.template) : null;
  if (op === '%' && leftText !== null && numberOf(left) === null)
    return percentFormat(n, leftText, n.childForFieldName('right'), ctx);
  const right = evaluate(n.childForFieldName('right'), ctx);
  const [ln, rn] = [numberOf(left), numberOf(right)];
  if (ln !== null && rn !== null && ARITHMETIC[op] && !(rn === 0 && (op === '//' || op === '%')))
    return scalar(n, literal(String(ARITHMETIC[op](ln, rn))));
  if (op === '%') return shardValue(n, { method: 'hash', values: rn === null ? null : shardRange(0, rn) });
  if (op === '&' && left?.kind === 'condition' && right?.kind === 'condition') {
    return { kind: 'condition', clauses: [...left.clauses, ...right.clauses], span: spanOf(n) };
  }
  const [lh, rh] = [left ? soleHole(left) : null, right ? soleHole(right) : null];
  if ((op === '+' || op === '-') && lh?.kind === 'shard' && rn !== null)
    return shardValue(n, shifted(lh.shards, op === '+' ? rn : -rn));
  if (op === '+' && rh?.kind === 'shard' && ln !== null) return shardValue(n, shifted(rh.shards, ln));
  // `time.time() // 3600` is the current hour; `time.time() * 1000` and `now - timedelta(1)` are still
  // times; `today.isoformat() + "#" + user_id` is a concatenation.
  const shiftsTime =
    rn !== null || /^(\w+\.)?(timedelta|relativedelta)\(/.test(n.childForFieldName('right')?.text ?? '');
  if (lh?.kind === 'time' && (op === '//' || op === '/')) return holeValue(n, { kind: 'time', time: 'bucket' });
  if (lh?.kind === 'time' && (op === '*' || ((op === '+' || op === '-') && shiftsTime))) return holeValue(n, { ...lh });
  if (op === '*' && (lh?.kind === 'random' || rh?.kind === 'random')) return holeValue(n, { kind: 'random' });
  if (op === '+' && left?.kind === 'scalar' && right?.kind === 'scalar')
    return scalar(n, concat(left.template, right.template));
  return unknownValue(n);
}

/** `"%s#%02d" % (a, b)` and `"%(pk)s" % {"pk": x}`. */
function percentFormat(n: Node, format: string, argsNode: Node | null, ctx: EvalContext): Value {
  const inner = argsNode?.type === 'parenthesized_expression' ? argsNode.namedChild(0) : argsNode;
  const positional =
    inner?.type === 'tuple'
      ? inner.namedChildren.filter((c): c is Node => !!c && c.type !== 'comment')
      : inner
        ? [inner]
        : [];
  const named = inner?.type === 'dictionary' ? evaluate(inner, ctx) : null;
  let next = 0;
  const parts: KeyTemplate[] = [];
  let last = 0;
  const re = /%(?:\(([^)]*)\))?[-#0 +]*(?:\*|\d+)?(?:\.(?:\*|\d+))?[hlL]?([diouxXeEfFgGcrsa%])/g;
  for (let m = re.exec(format); m; m = re.exec(format)) {
    parts.push(literal(format.slice(last, m.index)));
    last = m.index + m[0].length;
    if (m[2] === '%') parts.push(literal('%'));
    else if (m[1] !== undefined) {
      const v = named?.kind === 'object' ? named.entries.filter(([k]) => k === m![1]).pop()?.[1] : undefined;
      parts.push(v?.kind === 'scalar' ? v.template : templateOf(null, n));
    } else {
      const arg = positional[next++];
      parts.push(arg ? templateOf(evaluate(arg, ctx), arg) : templateOf(null, n));
    }
  }
  parts.push(literal(format.slice(last)));
  return scalar(n, concat(...parts));
}

/** `"{}#{:02d}".format(a, b)`, `"{0}#{name}".format(a, name=b)`. */
function formatMethod(n: Node, format: string, ctx: EvalContext): Value {
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
    const v = arg && field.length === m[1].length ? withSpec(evaluate(arg, ctx), m[2] ?? '', arg) : null;
    parts.push(arg ? templateOf(v ?? namedValue(arg, m[1].split('.').pop() ?? ''), arg) : templateOf(null, n));
  }
  parts.push(literal(format.slice(last)));
  return scalar(n, concat(...parts));
}

/** `a if c else b`, `a or b`: a value from a small literal set is low-cardinality. */
function choiceValue(n: Node, options: Array<Node | null>, ctx: EvalContext): Value {
  const values = options.map((o) => evaluate(o, ctx));
  if (values.every((v) => v?.kind === 'scalar' && soleHole(v) === null))
    return holeValue(n, { kind: 'low-cardinality' });
  return values.find((v) => v && soleHole(v)?.kind !== 'unknown') ?? values[0] ?? unknownValue(n);
}

const INSTANT =
  /^((\w+\.)?datetime\.(now|utcnow|today)|(time\.)?time(_ns)?|time\.(monotonic|perf_counter)(_ns)?|arrow\.(now|utcnow)|pendulum\.now|(\w+\.)?timezone\.now)$/;
const BUCKET = /^((\w+\.)?date\.today|pendulum\.today)$/;
const RANDOM =
  /^((uuid\.)?uuid[14]|ulid\.(new|ulid|create|generate|ULID)|(ulid\.)?ULID|(secrets\.)?token_(hex|urlsafe|bytes)|os\.urandom|nanoid\.generate|shortuuid\.uuid|(ksuid\.)?Ksuid|random\.(random|getrandbits|sample|choices))$/;
/** Calls that keep the class of their first argument: conversions and hashes. */
const PASS_ARG =
  /^(str|int|float|round|abs|bytes|hash|repr|Decimal|decimal\.Decimal|math\.(floor|ceil|trunc)|zlib\.(crc32|adler32)|binascii\.crc32|mmh3\.hash\w*|hashlib\.\w+|xxhash\.\w+|(urllib\.parse\.)?quote)$/;
/** Methods that keep the class of their receiver. */
const SAME_VALUE =
  /^(lower|upper|strip|lstrip|rstrip|zfill|rjust|ljust|center|encode|decode|hexdigest|digest|casefold|title|capitalize|removeprefix|removesuffix|intdigest)$/;
/** Methods of a time that keep its granularity; any other (`date`, `replace`) makes a bucket. */
const TIME_KEEPING = /^(isoformat|timestamp|astimezone|__str__|ctime|utcnow|now|to_iso8601_string|int_timestamp)$/;
const KEY_OPS: Record<string, string> = {
  eq: '=',
  begins_with: 'begins_with',
  between: 'between',
  lt: '<',
  lte: '<=',
  gt: '>',
  gte: '>=',
};

function callValue(n: Node, ctx: EvalContext): Value {
  const fn = n.childForFieldName('function');
  const callee = fn?.text.replace(/\s+/g, '') ?? '';
  const arg = (i: number) => argumentAt(n, i, null);
  if (/(^|\.)(getenv|environ\.get)$/.test(callee)) return unknownValue(n);
  if (INSTANT.test(callee)) return holeValue(n, { kind: 'time', time: 'instant' });
  if (BUCKET.test(callee)) return holeValue(n, { kind: 'time', time: 'bucket' });
  if (RANDOM.test(callee)) return holeValue(n, { kind: 'random' });
  const shard = randomShard(n, callee, ctx);
  if (shard) return shard;
  if (PASS_ARG.test(callee)) return randomProduct(n, callee, arg(0), ctx) ?? evaluate(arg(0), ctx) ?? unknownValue(n);
  if (callee === 'format')
    return (
      withSpec(evaluate(arg(0), ctx), literalText(templateOf(evaluate(arg(1), ctx), n)) ?? '', n) ?? unknownValue(n)
    );
  if (callee === 'dict') return kwargsValue(n, ctx);
  if (fn?.type === 'attribute') return methodValue(n, fn, ctx);
  const target = fn?.type === 'identifier' ? resolve(fn) : null;
  if (target?.kind === 'function') return returnValue(n, target.node, ctx);
  return namedValue(n, callee.split('.').pop() ?? callee);
}

/** `random.randint(1, 10)` (inclusive), `random.randrange(n)`, `random.choice(range(n))`. */
function randomShard(n: Node, callee: string, ctx: EvalContext): Value | null {
  const num = (i: number) => numberOf(evaluate(argumentAt(n, i, null), ctx));
  const has = (i: number) => argumentAt(n, i, null) !== null;
  const from = (a: number | null, b: number | null) =>
    shardValue(n, { method: 'random', values: a !== null && b !== null ? shardRange(a, b - a) : null });
  if (/^(random\.)?randint$/.test(callee)) {
    const b = num(1);
    return from(num(0), b === null ? null : b + 1);
  }
  // numpy's randint excludes its upper bound, like randrange.
  if (/^((random\.)?randrange|(np|numpy)\.random\.randint|secrets\.randbelow|randbelow)$/.test(callee)) {
    return has(1) ? from(num(0), num(1)) : from(0, num(0));
  }
  if (/^(random|secrets)\.choice$|^choice$/.test(callee)) {
    const items = iterableItems(argumentAt(n, 0, null), ctx);
    if (!items) return holeValue(n, { kind: 'random' });
    const values = items.items?.map(numberOf);
    return shardValue(n, { method: 'random', values: values?.every((x): x is number => x !== null) ? values : null });
  }
  return null;
}

/** `int(random.random() * N)` picks one of N shards (`math.ceil` picks 1..N). */
function randomProduct(n: Node, callee: string, inner: Node | null, ctx: EvalContext): Value | null {
  if (inner?.type !== 'binary_operator' || inner.childForFieldName('operator')?.text !== '*') return null;
  const [l, r] = [inner.childForFieldName('left'), inner.childForFieldName('right')];
  const isRandom = (x: Node | null) =>
    x?.type === 'call' && /^random\.random$|^random$/.test(x.childForFieldName('function')?.text ?? '');
  if (!isRandom(l) && !isRandom(r)) return null;
  const count = numberOf(evaluate(isRandom(l) ? r : l, ctx));
  const start = callee === 'math.ceil' ? 1 : 0;
  return shardValue(n, { method: 'random', values: count === null ? null : shardRange(start, count) });
}

/** Keyword arguments as an object: `dict(pk=x)`; `**spread` merges a dict it can see. */
export function kwargsValue(call: Node, ctx: EvalContext): Value {
  const list = call.childForFieldName('arguments');
  const entries: Array<[string, Value]> = [];
  for (const a of list?.type === 'argument_list' ? list.namedChildren : []) {
    if (a?.type === 'keyword_argument') {
      const name = a.childForFieldName('name')?.text;
      const value = a.childForFieldName('value');
      if (name && value) entries.push([name, evaluate(value, ctx) ?? unknownValue(value)]);
    } else if (a?.type === 'dictionary_splat' || a?.type === 'dictionary') {
      const v = evaluate(a.type === 'dictionary' ? a : a.namedChild(0), ctx);
      if (v?.kind === 'object') entries.push(...v.entries);
    }
  }
  return { kind: 'object', entries, span: spanOf(list ?? call) };
}

function methodValue(n: Node, fn: Node, ctx: EvalContext): Value {
  const method = fn.childForFieldName('attribute')?.text ?? '';
  const recvNode = fn.childForFieldName('object');
  const condition = conditionValue(n, method, recvNode, ctx);
  if (condition) return condition;
  const own = methodNode(fn);
  if (own) return returnValue(n, own, ctx);
  const recv = evaluate(recvNode, ctx);
  const recvText = recv?.kind === 'scalar' ? literalText(recv.template) : null;
  if (method === 'format' && recvText !== null) return formatMethod(n, recvText, ctx);
  if (method === 'join' && recvText !== null) return joinValue(n, recvText, ctx);
  const h = recv ? soleHole(recv) : null;
  if (h?.kind === 'time') {
    if (method === 'strftime')
      return holeValue(n, {
        kind: 'time',
        time: strftimeGranularity(literalText(templateOf(evaluate(argumentAt(n, 0, null), ctx), n))),
      });
    return holeValue(n, { kind: 'time', time: TIME_KEEPING.test(method) ? h.time : 'bucket' });
  }
  if (SAME_VALUE.test(method) && recv?.kind === 'scalar') return recv;
  if (method === 'get') {
    const key = argumentAt(n, 0, null);
    const keyText = key ? literalText(templateOf(evaluate(key, ctx), key)) : null;
    const found =
      recv?.kind === 'object' && keyText !== null ? recv.entries.filter(([k]) => k === keyText).pop() : undefined;
    if (found) return found[1];
    if (keyText !== null) return namedValue(n, keyText);
  }
  return namedValue(n, method);
}

/** `Key("pk").eq(x)` (boto3.dynamodb.conditions) as one key condition clause. */
function conditionValue(n: Node, method: string, recvNode: Node | null, ctx: EvalContext): Value | null {
  const op = KEY_OPS[method];
  if (!op || recvNode?.type !== 'call' || !/^(\w+\.)*Key$/.test(recvNode.childForFieldName('function')?.text ?? ''))
    return null;
  const nameNode = argumentAt(recvNode, 0, 'name');
  const name = nameNode ? literalText(templateOf(evaluate(nameNode, ctx), nameNode)) : null;
  const valueNode = argumentAt(n, 0, 'value');
  const clause: ConditionClause = {
    attribute: name ?? nameNode?.text ?? '?',
    op,
    value: evaluate(valueNode, ctx) ?? unknownValue(n),
  };
  return { kind: 'condition', clauses: [clause], span: spanOf(n) };
}

/** `"#".join([a, b])`. */
function joinValue(n: Node, separator: string, ctx: EvalContext): Value {
  const items = evaluate(argumentAt(n, 0, null), ctx);
  if (items?.kind !== 'array') return unknownValue(n);
  const parts = items.items.flatMap((v, i) => [
    literal(i === 0 ? '' : separator),
    v.kind === 'scalar' ? v.template : templateOf(null, n),
  ]);
  return scalar(n, concat(...parts));
}

/** A call to a function of this file: what it returns (a choice when it returns several things). */
function returnValue(n: Node, fn: Node, ctx: EvalContext): Value {
  const returns = fn
    .descendantsOfType('return_statement')
    .filter((r): r is Node => !!r && nearestFunction(r)?.equals(fn) === true)
    .map((r) => r.namedChild(0));
  if (returns.length === 0 || returns.length > 6) return namedValue(n, fn.childForFieldName('name')?.text ?? '');
  return returns.length === 1 ? (evaluate(returns[0], ctx) ?? unknownValue(n)) : choiceValue(n, returns, ctx);
}

function nearestFunction(n: Node): Node | null {
  for (let p = n.parent; p; p = p.parent) if (p.type === 'function_definition' || p.type === 'lambda') return p;
  return null;
}
