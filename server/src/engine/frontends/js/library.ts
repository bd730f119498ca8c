/**
 * What well-known calls make in a JavaScript/TypeScript key: clocks (`Date.now()`,
 * `new Date()`, dayjs), random sources (`Math.random()`, uuid, nanoid, `crypto.randomInt`),
 * conversions that keep their argument, and methods on strings and dates.
 */
import type { Node } from 'web-tree-sitter';
import {
  holeValue,
  namedValue,
  numberOf,
  scalar,
  shardCountOfExpression,
  shardValue,
  parsedRequest,
  soleHole,
  templateOf,
  unknownValue,
} from '../evaluation';
import { type EvalContext } from '../../model/eval-context';
import { spanOf } from '../../syntax/span';
import { concat, literal, shardRange } from '../../model/template';
import type { Value } from '../../model/value';
import { instanceValue } from './classes';
import { ownFunctionValue } from './returns';
import { resolve } from './scope';
import { returnedExpressions, soleReturned } from './functions';
import { builderValue, constructionValue } from './constructions';
import { unwrap } from '../literal-guards';
import { pageOfList } from '../value-ops';

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
/**
 * Calls that return a new unique id each time: UUIDs of versions 1, 4, 6 and 7 (not 3 or 5,
 * which hash a name and give the same id for it), nanoid, ULID, cuid, KSUID, random bytes.
 */
const RANDOM_FUNCTIONS =
  /^(uuid|uuidv[1467]|v[1467]|uuid\.v[1467]|randomUUID|crypto\.randomUUID|nanoid|ulid|monotonicFactory\(\)|cuid|createId|ksuid|KSUID\.random(Sync)?|randomBytes|crypto\.randomBytes)$/;
/** The same ids under a name of the importer's choosing (`import { v1 as makeId } from 'uuid'`), by module. */
const RANDOM_IMPORTS: Record<string, RegExp> = {
  uuid: /^v[1467]$/,
  nanoid: /^nanoid$/,
  ulid: /^ulid$/,
  '@paralleldrive/cuid2': /^createId$/,
  cuid: /^default$/,
};

function importedRandom(fn: Node | null, ctx: EvalContext): boolean {
  if (fn?.type !== 'identifier') return false;
  const b = resolve(fn, ctx);
  return b?.kind === 'import' && !!RANDOM_IMPORTS[b.source]?.test(b.name);
}

/** `new Date()` is now; `new Set([...])` is a collection, never a number to add. */
export function newValue(n: Node, ctx: EvalContext): Value {
  const ctor = n.childForFieldName('constructor')?.text;
  const args = n.childForFieldName('arguments');
  if (ctor === 'Date' && !args?.namedChildCount) return holeValue(n, { kind: 'time', time: 'instant' });
  if (ctor === 'Proxy' && echoesName(args?.namedChild(1) ?? null))
    return { kind: 'object', entries: [], span: spanOf(n), echoes: true };
  // `new DateHelper()` of a class this workspace declares: its instance fields and getters.
  const ctorNode = n.childForFieldName('constructor');
  const cls = ctorNode?.type === 'identifier' ? resolve(ctorNode, ctx) : null;
  if (cls?.kind === 'class') return instanceValue(cls.node, n, ctx);
  // `new Entity({...})` of a DynamoDB library: its schema, for the library's front-end.
  if (cls?.kind === 'import') return constructionValue(n, ctx) ?? unknownValue(n);
  // `new dynamoose.Schema({...})`, `new Cat({...})` of a library's model.
  if (cls?.kind === 'value' || ctorNode?.type === 'member_expression') {
    const made = constructionValue(n, ctx);
    if (made) return made;
  }
  if (ctor === 'Set') {
    const items = ctx.evaluate(args?.namedChild(0) ?? null, ctx);
    return { kind: 'array', items: items?.kind === 'array' ? items.items : [], span: spanOf(n) };
  }
  return unknownValue(n);
}

/** A `Proxy` handler whose `get` returns the property name (`get: (_, prop) => String(prop)`). */
function echoesName(handler: Node | null): boolean {
  if (handler?.type !== 'object') return false;
  const get = handler.namedChildren.find((c) => c?.type === 'pair' && c.childForFieldName('key')?.text === 'get');
  const fn = get?.childForFieldName('value');
  const method = handler.namedChildren.find(
    (c) => c?.type === 'method_definition' && c.childForFieldName('name')?.text === 'get',
  );
  const f = fn ?? method;
  if (!f) return false;
  const prop = f.childForFieldName('parameters')?.namedChildren.filter((p) => p?.type !== 'comment')[1];
  const name = prop?.childForFieldName('pattern')?.text ?? prop?.text;
  const returns = returnedExpressions(f);
  if (!name || returns.length !== 1 || !returns[0]) return false;
  const r = returns[0].text.replace(/\s+/g, '').replace(/as\w+$/, '');
  return r === name || r === `String(${name})` || r === `\`\${${name}}\`` || r === `${name}.toString()`;
}

export function isRandom(v: Value | null): boolean {
  const h = v ? soleHole(v) : null;
  return h?.kind === 'random' && h.unit === true;
}

export function callValue(n: Node, ctx: EvalContext): Value {
  const fn = n.childForFieldName('function');
  const args = n.childForFieldName('arguments');
  const arg = (i: number) => args?.namedChild(i) ?? null;
  const callee = fn?.text.replace(/\s+/g, '') ?? '';
  // `string().key().default("X")` of a DynamoDB library: the attribute's declaration.
  const built = builderValue(n, ctx);
  if (built) return built;
  if (callee === 'Math.random') return holeValue(n, { kind: 'random', unit: true });
  const parsed = callee === 'JSON.parse' ? parsedRequest(withoutFallback(arg(0)), ctx) : null;
  if (parsed) return parsed;
  // `Object.freeze({ pk: "PK" })`: a constants object, frozen.
  if (callee === 'Object.freeze' && arg(0)) return ctx.evaluate(arg(0), ctx) ?? unknownValue(n);
  if (callee === 'Date.now' || /^(dayjs|moment|DateTime\.now|DateTime\.utc)$/.test(callee))
    return holeValue(n, { kind: 'time', time: 'instant' });
  if (RANDOM_FUNCTIONS.test(callee) || importedRandom(fn, ctx)) return holeValue(n, { kind: 'random' });
  if (/^(Math\.(floor|trunc|round|ceil)|parseInt|Number)$/.test(callee)) {
    const inner = arg(0);
    const product =
      inner?.type === 'binary_expression' && inner.childForFieldName('operator')?.text === '*' ? inner : null;
    if (product) {
      const l = ctx.evaluate(product.childForFieldName('left'), ctx);
      const r = ctx.evaluate(product.childForFieldName('right'), ctx);
      if (isRandom(l) || isRandom(r)) {
        const countValue = isRandom(l) ? r : l;
        const countNode = product.childForFieldName(isRandom(l) ? 'right' : 'left');
        const count = numberOf(countValue);
        const start = callee === 'Math.ceil' ? 1 : 0;
        return shardValue(n, {
          method: 'random',
          values: count === null ? null : shardRange(start, count),
          count: shardCountOfExpression(countNode, countValue),
        });
      }
    }
    return ctx.evaluate(inner, ctx) ?? unknownValue(n);
  }
  if (/^(crypto\.)?randomInt$/.test(callee)) {
    const first = ctx.evaluate(arg(0), ctx);
    const a = numberOf(first);
    const b = arg(1) ? numberOf(ctx.evaluate(arg(1), ctx)) : null;
    const values = arg(1)
      ? a !== null && b !== null
        ? shardRange(a, b - a)
        : null
      : a !== null
        ? shardRange(0, a)
        : null;
    return shardValue(n, {
      method: 'random',
      values,
      count: arg(1) ? undefined : shardCountOfExpression(arg(0), first),
    });
  }
  if (/^_\.random$/.test(callee)) {
    const a = numberOf(ctx.evaluate(arg(0), ctx));
    const b = numberOf(ctx.evaluate(arg(1), ctx));
    return shardValue(n, { method: 'random', values: a !== null && b !== null ? shardRange(a, b - a + 1) : null });
  }
  if (callee === 'String' || callee === 'marshall' || callee === 'encodeURIComponent')
    return ctx.evaluate(arg(0), ctx) ?? unknownValue(n);
  const own = fn ? ownFunctionValue(n, fn, ctx) : null;
  if (own) return own;
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
    const sep = ctx.evaluate(args?.namedChild(0) ?? null, ctx);
    const sepT = sep?.kind === 'scalar' ? sep.template : literal(',');
    const items = recvNode.namedChildren.map((c) => templateOf(ctx.evaluate(c, ctx), c!));
    const parts = items.flatMap((t, i) => (i === 0 ? [t] : [sepT, t]));
    return scalar(n, concat(...parts));
  }
  const mapped = method === 'map' || method === 'flatMap' ? mappedItems(n, args?.namedChild(0) ?? null, ctx) : null;
  if (mapped) return method === 'flatMap' && mapped.kind === 'array' ? { ...mapped, span: spanOf(n) } : mapped;
  const recv = ctx.evaluate(recvNode, ctx);
  const h = recv ? soleHole(recv) : null;
  if (h?.kind === 'time') {
    // A date the request carries stays one, whatever is made of it.
    const input = h.input ? { input: true as const } : {};
    if (/^(toISOString|toJSON|getTime|valueOf|toString|unix|toMillis)$/.test(method))
      return holeValue(n, { kind: 'time', time: h.time, ...input });
    if (/^(slice|substring|substr)$/.test(method)) {
      const end = numberOf(ctx.evaluate(args?.namedChild(1) ?? null, ctx));
      return holeValue(n, { kind: 'time', time: end !== null && end < 19 ? 'bucket' : h.time, ...input });
    }
    return holeValue(n, { kind: 'time', time: 'bucket', ...input });
  }
  if (SAME_VALUE_METHODS.has(method) && recv?.kind === 'scalar') return recv;
  if (method === 'slice' && recv?.kind === 'array') {
    const bounds = [0, 1].map((i) => args?.namedChild(i) ?? null);
    return pageOfList(
      n,
      recv.items,
      bounds.map((b) => ({ written: b !== null, value: b ? numberOf(ctx.evaluate(b, ctx)) : null })),
    );
  }
  if (h?.kind === 'random' && /^(toString|slice|substring|replace)$/.test(method)) return recv!;
  if (method === 'randomUUID') return holeValue(n, { kind: 'random' });
  return namedValue(n, method.replace(/^(get|compute|make|build|current)(?=[A-Z])/, ''));
}

/**
 * `ids.map((id) => ({ userId: { S: id } }))`, `scores.map((s) => ({ PutRequest: { Item: {...} } }))`:
 * an array of items each shaped like what the callback returns, its parameter a value per
 * element. So the `Keys` of a BatchGetItem and the requests of a BatchWriteItem built from
 * a list are read as one request of that shape, where a shard fix must see them too.
 * Null when the callback is not written here or returns in more than one place.
 */
function mappedItems(n: Node, callback: Node | null, ctx: EvalContext): Value | null {
  if (!callback || !/^(arrow_function|function_expression|function)$/.test(callback.type)) return null;
  const returned = soleReturned(callback);
  const item = returned && ctx.evaluate(returned, ctx);
  return item ? { kind: 'array', items: [item], span: spanOf(n) } : null;
}

/** `event.body || "{}"`, `event.body ?? "{}"`: the text itself, without what stands in when it is absent. */
function withoutFallback(n: Node | null): Node | null {
  const x = n && unwrap(n);
  const op = x?.type === 'binary_expression' ? x.childForFieldName('operator')?.type : null;
  return op === '||' || op === '??' ? x!.childForFieldName('left') : x;
}
