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
import { spanOf } from '../span';
import { concat, literal, shardRange } from '../template';
import type { KeyTemplate } from '../model';
import type { Value } from '../value';
import { callsNaming, isFunction, parametersOf, resolve } from './scope';

/**
 * Evaluates a JavaScript/TypeScript expression into a Value: object literals into
 * objects, strings and template literals into key templates whose holes say where
 * each part comes from. Identifiers are followed to their declarations in the file.
 */
export function evaluate(n: Node | null, ctx: EvalContext): Value | null {
  if (!n) return null;
  recordNode(n, n.type === 'identifier' || n.type === 'shorthand_property_identifier' ? n.text : undefined);
  const next = deeper(ctx);
  if (!next) return unknownValue(n);
  return evaluateNode(n, next);
}

/** The key template of a value; objects and arrays inside a key are unknown parts. */
function scalarTemplate(v: Value | null, n: Node): KeyTemplate {
  const s = v && v.kind === 'scalar' ? v : unknownValue(n);
  return s.kind === 'scalar' ? s.template : literal('');
}

const PASS_THROUGH = new Set([
  'parenthesized_expression',
  'as_expression',
  'satisfies_expression',
  'non_null_expression',
  'type_assertion',
]);

const SAME_VALUE_METHODS = new Set([
  'toString',
  'toLowerCase',
  'toUpperCase',
  'trim',
  'valueOf',
  'padStart',
  'padEnd',
  'normalize',
]);
const RANDOM_FUNCTIONS = /^(uuid|uuidv4|v4|randomUUID|nanoid|ulid|cuid|createId|ksuid|uuid\.v4|crypto\.randomUUID)$/;

function evaluateNode(n: Node, ctx: EvalContext): Value {
  if (PASS_THROUGH.has(n.type)) return evaluate(n.namedChild(0), ctx) ?? unknownValue(n);
  switch (n.type) {
    case 'string':
      return scalar(
        n,
        literal(
          n.namedChildren
            .map((c) => (c?.type === 'string_fragment' || c?.type === 'escape_sequence' ? unescape(c.text) : ''))
            .join(''),
        ),
      );
    case 'template_string':
      return scalar(n, concat(...n.namedChildren.map((c) => templatePart(c, ctx))));
    case 'number':
      return scalar(n, literal(n.text.replace(/_/g, '')));
    case 'true':
    case 'false':
    case 'null':
    case 'undefined':
      return scalar(n, literal(n.text));
    case 'object':
      return objectValue(n, ctx);
    case 'array':
      return {
        kind: 'array',
        items: n.namedChildren.flatMap((c) =>
          c && c.type !== 'spread_element' ? [evaluate(c, ctx) ?? unknownValue(c)] : [],
        ),
        span: spanOf(n),
      };
    case 'identifier':
    case 'shorthand_property_identifier':
      return identifierValue(n, ctx);
    case 'member_expression':
      return memberValue(n, ctx);
    case 'subscript_expression':
      return subscriptValue(n, ctx);
    case 'binary_expression':
      return binaryValue(n, ctx);
    case 'ternary_expression':
      return choiceValue(n, [n.childForFieldName('consequence'), n.childForFieldName('alternative')], ctx);
    case 'call_expression':
      return callValue(n, ctx);
    case 'new_expression':
      return newValue(n, ctx);
    case 'await_expression':
      return evaluate(n.namedChild(0), ctx) ?? unknownValue(n);
    case 'unary_expression':
      return n.text.startsWith('!') ? holeValue(n, { kind: 'low-cardinality' }) : unknownValue(n);
    default:
      return unknownValue(n);
  }
}

/** `new Date()` is now; `new Set([...])` is a collection, never a number to add. */
function newValue(n: Node, ctx: EvalContext): Value {
  const ctor = n.childForFieldName('constructor')?.text;
  const args = n.childForFieldName('arguments');
  if (ctor === 'Date' && !args?.namedChildCount) return holeValue(n, { kind: 'time', time: 'instant' });
  if (ctor === 'Set') {
    const items = evaluate(args?.namedChild(0) ?? null, ctx);
    return { kind: 'array', items: items?.kind === 'array' ? items.items : [], span: spanOf(n) };
  }
  return unknownValue(n);
}

function unescape(s: string): string {
  return s.startsWith('\\') ? ({ '\\n': '\n', '\\t': '\t' }[s] ?? s.slice(1)) : s;
}

function templatePart(c: Node | null, ctx: EvalContext) {
  if (!c) return literal('');
  if (c.type === 'string_fragment' || c.type === 'escape_sequence') return literal(unescape(c.text));
  if (c.type === 'template_substitution') {
    const inner = c.namedChild(0);
    return scalarTemplate(evaluate(inner, ctx), inner ?? c);
  }
  return literal('');
}

function propertyKey(k: Node, ctx: EvalContext): string {
  if (k.type === 'string') return k.text.slice(1, -1);
  if (k.type === 'computed_property_name') {
    const v = evaluate(k.namedChild(0), ctx);
    const t =
      v?.kind === 'scalar' && v.template.parts.length === 1 && 'literal' in v.template.parts[0]
        ? v.template.parts[0].literal
        : null;
    return t ?? `[${k.text.slice(1, -1)}]`;
  }
  return k.text;
}

function objectValue(n: Node, ctx: EvalContext): Value {
  const entries: Array<[string, Value]> = [];
  for (const c of n.namedChildren) {
    if (!c) continue;
    if (c.type === 'pair') {
      const k = c.childForFieldName('key');
      const v = c.childForFieldName('value');
      if (k && v) entries.push([propertyKey(k, ctx), evaluate(v, ctx) ?? unknownValue(v)]);
    } else if (c.type === 'shorthand_property_identifier') {
      entries.push([c.text, evaluate(c, ctx) ?? unknownValue(c)]);
    } else if (c.type === 'spread_element') {
      // `...defaults`: merge what we can see; later keys override earlier ones.
      for (const v of spreadObjects(c.namedChild(0), ctx)) entries.push(...v.entries);
    }
  }
  return { kind: 'object', entries, span: spanOf(n) };
}

/**
 * The objects a spread may bring in: `...base`, and the conditional forms
 * `...(lastKey && { ExclusiveStartKey: lastKey })` and `...(c ? { a } : {})`.
 */
function spreadObjects(n: Node | null, ctx: EvalContext): Array<Extract<Value, { kind: 'object' }>> {
  let inner = n;
  while (inner?.type === 'parenthesized_expression') inner = inner.namedChild(0);
  if (!inner) return [];
  const parts =
    inner.type === 'binary_expression' && /^(&&|\?\?|\|\|)$/.test(inner.childForFieldName('operator')?.text ?? '')
      ? [inner.childForFieldName('right')]
      : inner.type === 'ternary_expression'
        ? [inner.childForFieldName('consequence'), inner.childForFieldName('alternative')]
        : [inner];
  return parts.flatMap((p) => {
    const v = evaluate(p, ctx);
    return v?.kind === 'object' ? [v] : [];
  });
}

function identifierValue(n: Node, ctx: EvalContext): Value {
  const b = resolve(n);
  if (!b) return namedValue(n, n.text);
  switch (b.kind) {
    case 'value':
      return evaluate(b.node, ctx) ?? unknownValue(n);
    case 'param':
      return paramValue(n, b.fn, b.index, ctx) ?? namedValue(n, n.text);
    case 'loop':
      return loopValue(n, b.loop, ctx) ?? namedValue(n, n.text);
    case 'import':
      return importedValue(n, b.source, b.name, ctx) ?? namedValue(n, n.text);
    default:
      return namedValue(n, n.text);
  }
}

/** `for (const s of SHARDS)`, `for (let i = 0; i < N; i++)`. */
function loopValue(n: Node, loop: Node, ctx: EvalContext): Value | null {
  if (loop.type === 'for_in_statement') {
    if (loop.childForFieldName('operator')?.text !== 'of') return null;
    const items = arrayItems(loop.childForFieldName('right'), ctx);
    return items ? loopElementValue(n, items.items, items.generated) : null;
  }
  const init = loop
    .childForFieldName('initializer')
    ?.descendantsOfType('variable_declarator')[0]
    ?.childForFieldName('value');
  const cond = loop.childForFieldName('condition');
  const cmp = cond?.type === 'binary_expression' ? cond : cond?.namedChild(0);
  const start = numberOf(evaluate(init ?? null, ctx));
  const op = cmp?.childForFieldName('operator')?.text;
  const bound = numberOf(evaluate(cmp?.childForFieldName('right') ?? null, ctx));
  if (start === null || bound === null || (op !== '<' && op !== '<='))
    return shardValue(n, { method: 'loop', values: null });
  return shardValue(n, { method: 'loop', values: shardRange(start, bound - start + (op === '<=' ? 1 : 0)) });
}

/**
 * The elements of an array expression: literals, `Array.from({length: N}, (_, i) => i + k)`,
 * `[...Array(N).keys()]`, or a constant holding one of those.
 */
function arrayItems(n: Node | null, ctx: EvalContext): { items: Value[]; generated: boolean } | null {
  if (!n) return null;
  const target = n.type === 'identifier' ? resolve(n) : null;
  if (target?.kind === 'value') return arrayItems(target.node, ctx);
  const count = generatedLength(n, ctx);
  if (count !== null) {
    const range = shardRange(count.start, count.length);
    return range ? { items: range.map((x) => scalar(n, literal(String(x)))), generated: true } : null;
  }
  const v = n.type === 'array' && !n.namedChildren.some((c) => c?.type === 'spread_element') ? evaluate(n, ctx) : null;
  return v?.kind === 'array' ? { items: v.items, generated: false } : null;
}

function generatedLength(n: Node, ctx: EvalContext): { start: number; length: number } | null {
  const text = n.text.replace(/\s+/g, '');
  // [...Array(N).keys()] / Array.from(Array(N).keys())
  const keys = text.match(/^(?:\[\.\.\.|Array\.from\()(?:new)?Array\((.+)\)\.keys\(\)(?:\]|\))$/);
  if (keys) {
    const inner = n
      .descendantsOfType('call_expression')
      .find((c) => c?.childForFieldName('function')?.text === 'Array');
    const len = numberOf(evaluate(inner?.childForFieldName('arguments')?.namedChild(0) ?? null, ctx));
    return len === null ? null : { start: 0, length: len };
  }
  if (n.type === 'call_expression' && n.childForFieldName('function')?.text === 'Array.from') {
    const args = n.childForFieldName('arguments');
    const len = lengthOf(args?.namedChild(0) ?? null, ctx);
    const mapper = args?.namedChild(1);
    if (len === null) return null;
    const offset = mapper ? mapperOffset(mapper) : null;
    return offset === null ? null : { start: offset, length: len };
  }
  return null;
}

function lengthOf(n: Node | null, ctx: EvalContext): number | null {
  if (n?.type !== 'object') return null;
  const pair = n.namedChildren.find((c) => c?.type === 'pair' && c.childForFieldName('key')?.text === 'length');
  if (pair) return numberOf(evaluate(pair.childForFieldName('value'), ctx));
  const short = n.namedChildren.find((c) => c?.type === 'shorthand_property_identifier' && c.text === 'length');
  return short ? numberOf(evaluate(short, ctx)) : null;
}

/** `(_, i) => i` gives 0, `(_, i) => i + 1` gives 1. */
function mapperOffset(fn: Node): number | null {
  if (!isFunction(fn)) return null;
  const index = parametersOf(fn)[1]?.text.replace(/:.*/, '').trim();
  const body = fn.childForFieldName('body')?.text.replace(/\s+/g, '');
  if (!index || !body) return null;
  if (body === index) return 0;
  const m = body.match(new RegExp(`^\\(?${index}\\+(\\d+)\\)?$`));
  return m ? Number(m[1]) : null;
}

/**
 * A parameter's value: a callback's element (`SHARDS.map((s) => ...)`,
 * `Array.from({length: N}, (_, i) => ...)`) or the arguments at the function's call
 * sites in this file.
 */
function paramValue(n: Node, fn: Node, index: number, ctx: EvalContext): Value | null {
  const args = fn.parent;
  const call = args?.type === 'arguments' ? args.parent : null;
  if (call?.type === 'call_expression') {
    const callee = call.childForFieldName('function');
    const argIndex = args!.namedChildren.findIndex((c) => c?.equals(fn));
    if (callee?.text === 'Array.from' && argIndex === 1 && index === 1) {
      const len = lengthOf(args!.namedChild(0), ctx) ?? arrayItems(args!.namedChild(0), ctx)?.items.length ?? null;
      return shardValue(n, { method: 'loop', values: len === null ? null : shardRange(0, len) });
    }
    if (
      callee?.type === 'member_expression' &&
      index === 0 &&
      /^(map|forEach|flatMap|filter|reduce)$/.test(callee.childForFieldName('property')?.text ?? '')
    ) {
      const items = arrayItems(callee.childForFieldName('object'), ctx);
      return items ? loopElementValue(n, items.items, items.generated) : null;
    }
    if (
      callee?.type === 'member_expression' &&
      index === 1 &&
      callee.childForFieldName('property')?.text === 'forEach'
    ) {
      const items = arrayItems(callee.childForFieldName('object'), ctx);
      return items ? shardValue(n, { method: 'loop', values: shardRange(0, items.items.length) }) : null;
    }
    return null;
  }
  // A named function: look at how this file calls it.
  const name =
    fn.childForFieldName('name')?.text ??
    (fn.parent?.type === 'variable_declarator' ? fn.parent.childForFieldName('name')?.text : undefined);
  if (!name) return null;
  for (const c of callsNaming(fn.tree, name)) {
    const f = c.childForFieldName('function');
    const cargs = c.childForFieldName('arguments');
    if (f?.text === name && cargs) {
      const arg = cargs.namedChild(index);
      if (!arg) continue;
      const v = evaluate(arg, ctx);
      if (v && soleHole(v)?.kind !== 'unknown') return v;
    }
    if (
      f?.type === 'member_expression' &&
      /^(map|forEach|flatMap)$/.test(f.childForFieldName('property')?.text ?? '') &&
      cargs?.namedChild(0)?.text === name &&
      index === 0
    ) {
      const items = arrayItems(f.childForFieldName('object'), ctx);
      if (items) return loopElementValue(n, items.items, items.generated);
    }
  }
  return null;
}

function memberValue(n: Node, ctx: EvalContext): Value {
  const obj = n.childForFieldName('object');
  const prop = n.childForFieldName('property')?.text ?? '';
  if (obj?.text === 'process.env') return unknownValue(n);
  const base = obj ? evaluate(obj, ctx) : null;
  if (base?.kind === 'object') {
    const found = base.entries.filter(([k]) => k === prop).pop();
    if (found) return found[1];
  }
  // `Status.OPEN`: an enum member is one fixed value.
  if (obj && /^[A-Z][A-Za-z0-9]*$/.test(obj.text) && /^[A-Z][A-Z0-9_]*$/.test(prop)) return scalar(n, literal(n.text));
  if (prop === 'length') return unknownValue(n);
  return namedValue(n, prop);
}

function subscriptValue(n: Node, ctx: EvalContext): Value {
  const obj = n.childForFieldName('object');
  const index = n.childForFieldName('index');
  const base = evaluate(obj, ctx);
  // `date.split('T')[0]` keeps the time-ness of what was split.
  const h = base ? soleHole(base) : null;
  if (h?.kind === 'time') return holeValue(n, { kind: 'time', time: 'bucket' });
  if (base?.kind === 'array') {
    const i = numberOf(evaluate(index, ctx));
    if (i !== null && base.items[i]) return base.items[i];
    const idx = index ? evaluate(index, ctx) : null;
    if (idx && soleHole(idx)?.kind === 'shard') return idx;
    return loopElementValue(n, base.items, false);
  }
  if (base?.kind === 'object' && index?.type === 'string') {
    const key = index.text.slice(1, -1);
    const found = base.entries.filter(([k]) => k === key).pop();
    if (found) return found[1];
  }
  if (index?.type === 'string') return namedValue(n, index.text.slice(1, -1));
  return unknownValue(n);
}

function binaryValue(n: Node, ctx: EvalContext): Value {
  const op = n.childForFieldName('operator')?.text;
  const leftNode = n.childForFieldName('left');
  const rightNode = n.childForFieldName('right');
  if (op === '??' || op === '||') return choiceValue(n, [leftNode, rightNode], ctx);
  if (op === '===' || op === '!==' || op === '==' || op === '!=' || op === '<' || op === '>' || op === '&&') {
    return holeValue(n, { kind: 'low-cardinality' });
  }
  const left = evaluate(leftNode, ctx);
  const right = evaluate(rightNode, ctx);
  if (op === '%') {
    const mod = numberOf(right);
    return shardValue(n, { method: 'hash', values: mod === null ? null : shardRange(0, mod) });
  }
  if (op === '*' && (isRandom(left) || isRandom(right))) {
    return holeValue(n, { kind: 'random' });
  }
  if (op === '+' || op === '-') {
    const lh = left ? soleHole(left) : null;
    const rn = numberOf(right);
    if (lh?.kind === 'shard' && rn !== null) return shardValue(n, shifted(lh.shards, op === '+' ? rn : -rn));
    if (op === '+' && left?.kind === 'scalar' && right?.kind === 'scalar') {
      const ln = numberOf(left);
      if (ln !== null && rn !== null) return scalar(n, literal(String(ln + rn)));
      return scalar(n, concat(left.template, right.template));
    }
  }
  return unknownValue(n);
}

function isRandom(v: Value | null): boolean {
  const h = v ? soleHole(v) : null;
  return h?.kind === 'random' && h.source === 'Math.random()';
}

/** `a ? 'x' : 'y'`: a value from a small literal set is low-cardinality. */
function choiceValue(n: Node, options: Array<Node | null>, ctx: EvalContext): Value {
  const values = options.map((o) => evaluate(o, ctx));
  const allLiteral = values.every((v) => v?.kind === 'scalar' && soleHole(v) === null);
  if (allLiteral) return holeValue(n, { kind: 'low-cardinality' });
  return values.find((v) => v && soleHole(v)?.kind !== 'unknown') ?? values[0] ?? unknownValue(n);
}

function callValue(n: Node, ctx: EvalContext): Value {
  const fn = n.childForFieldName('function');
  const args = n.childForFieldName('arguments');
  const arg = (i: number) => args?.namedChild(i) ?? null;
  const callee = fn?.text.replace(/\s+/g, '') ?? '';
  if (callee === 'Math.random') return holeValue(n, { kind: 'random' });
  if (callee === 'Date.now' || /^(dayjs|moment|DateTime\.now|DateTime\.utc)$/.test(callee))
    return holeValue(n, { kind: 'time', time: 'instant' });
  if (RANDOM_FUNCTIONS.test(callee)) return holeValue(n, { kind: 'random' });
  if (/^(Math\.(floor|trunc|round|ceil)|parseInt|Number)$/.test(callee)) {
    const inner = arg(0);
    const product =
      inner?.type === 'binary_expression' && inner.childForFieldName('operator')?.text === '*' ? inner : null;
    if (product) {
      const l = evaluate(product.childForFieldName('left'), ctx);
      const r = evaluate(product.childForFieldName('right'), ctx);
      if (isRandom(l) || isRandom(r)) {
        const count = numberOf(isRandom(l) ? r : l);
        const start = callee === 'Math.ceil' ? 1 : 0;
        return shardValue(n, { method: 'random', values: count === null ? null : shardRange(start, count) });
      }
    }
    return evaluate(inner, ctx) ?? unknownValue(n);
  }
  if (/^(crypto\.)?randomInt$/.test(callee)) {
    const a = numberOf(evaluate(arg(0), ctx));
    const b = arg(1) ? numberOf(evaluate(arg(1), ctx)) : null;
    const values = arg(1)
      ? a !== null && b !== null
        ? shardRange(a, b - a)
        : null
      : a !== null
        ? shardRange(0, a)
        : null;
    return shardValue(n, { method: 'random', values });
  }
  if (/^_\.random$/.test(callee)) {
    const a = numberOf(evaluate(arg(0), ctx));
    const b = numberOf(evaluate(arg(1), ctx));
    return shardValue(n, { method: 'random', values: a !== null && b !== null ? shardRange(a, b - a + 1) : null });
  }
  if (callee === 'String' || callee === 'marshall' || callee === 'encodeURIComponent')
    return evaluate(arg(0), ctx) ?? unknownValue(n);
  if (fn?.type === 'member_expression') return methodValue(n, fn, ctx);
  return fn
    ? namedValue(
        n,
        fn.text
          .split('.')
          .pop()!
          .replace(/^(get|compute|make|build|current)(?=[A-Z])/, ''),
      )
    : unknownValue(n);
}

/** Methods on a value: string methods keep it, date methods make time. */
function methodValue(n: Node, fn: Node, ctx: EvalContext): Value {
  const method = fn.childForFieldName('property')?.text ?? '';
  const recvNode = fn.childForFieldName('object');
  const args = n.childForFieldName('arguments');
  if (method === 'join' && recvNode?.type === 'array') {
    const sep = evaluate(args?.namedChild(0) ?? null, ctx);
    const sepT = sep?.kind === 'scalar' ? sep.template : literal(',');
    const items = recvNode.namedChildren.map((c) => scalarTemplate(evaluate(c, ctx), c!));
    const parts = items.flatMap((t, i) => (i === 0 ? [t] : [sepT, t]));
    return scalar(n, concat(...parts));
  }
  const recv = evaluate(recvNode, ctx);
  const h = recv ? soleHole(recv) : null;
  if (h?.kind === 'time') {
    if (/^(toISOString|toJSON|getTime|valueOf|toString|unix|toMillis)$/.test(method))
      return holeValue(n, { kind: 'time', time: h.time });
    if (/^(slice|substring|substr)$/.test(method)) {
      const end = numberOf(evaluate(args?.namedChild(1) ?? null, ctx));
      return holeValue(n, { kind: 'time', time: end !== null && end < 19 ? 'bucket' : h.time });
    }
    return holeValue(n, { kind: 'time', time: 'bucket' });
  }
  if (SAME_VALUE_METHODS.has(method) && recv?.kind === 'scalar') return recv;
  if (h?.kind === 'random' && /^(toString|slice|substring|replace)$/.test(method)) return recv!;
  if (method === 'randomUUID') return holeValue(n, { kind: 'random' });
  return namedValue(n, method.replace(/^(get|compute|make|build|current)(?=[A-Z])/, ''));
}
