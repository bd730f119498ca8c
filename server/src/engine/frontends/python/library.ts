/**
 * What calls make in a Python key: clocks (`datetime.now()`, `time.time()`), random
 * sources (uuid, secrets, `random.randint`), conversions and hashes that keep their
 * argument, methods on strings and times, boto3 `Key(...)` conditions, and calls to
 * the file's own functions.
 */
import type { Node } from 'web-tree-sitter';
import {
  forOneCall,
  holeValue,
  namedValue,
  numberOf,
  shardCountOfExpression,
  shardValue,
  parsedRequest,
  soleHole,
  templateOf,
  unknownValue,
  envReadNamedBy,
} from '../evaluation';
import { type EvalContext } from '../../model/eval-context';
import { spanOf } from '../../syntax/span';
import { literalText, shardRange } from '../../model/template';
import type { ConditionClause, Value } from '../../model/value';
import type { ShardCount } from '../../model';
import { memberOf, propertyOrDefault } from '../value-ops';
import { callArguments } from '../wrappers/arguments';
import { pythonFunction, returnedExpressions } from './functions';
import { importedNames } from './imports';
import { instantiate, returnedToCall } from '../wrappers/instantiate';
import { kwargsValue } from './structures';
import { iterableItems } from './loops';
import { argumentAt } from './argument-sources';
import { classAttributes, methodNode, methodsNamed } from './class-members';
import { resolve } from './scope';
import { formatMethod, joinValue, strftimeGranularity, withSpec } from './strings';
import { DUMP_METHODS, dumpedInstance } from './model-dumps';
import { unwrap } from '../literal-guards';

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

/** A function named, not called (`default=uuid4`, `default=datetime.utcnow`): what calling it gives, when a clock or a random source. */
export function referenceValue(n: Node): Value | null {
  const callee = n.text.replace(/\s+/g, '');
  if (INSTANT.test(callee)) return holeValue(n, { kind: 'time', time: 'instant' });
  if (BUCKET.test(callee)) return holeValue(n, { kind: 'time', time: 'bucket' });
  if (RANDOM.test(callee)) return holeValue(n, { kind: 'random' });
  return null;
}

export function callValue(n: Node, ctx: EvalContext): Value {
  const fn = n.childForFieldName('function');
  const callee = fn?.text.replace(/\s+/g, '') ?? '';
  const arg = (i: number) => argumentAt(n, i, null);
  if (/(^|\.)(getenv|environ\.get)$/.test(callee)) {
    const name = argumentAt(n, 0, 'key');
    return !name || name.type === 'string'
      ? unknownValue(n)
      : envReadNamedBy(n, ctx.evaluate(name, ctx), (v) => `os.getenv("${v}")`);
  }
  const parsed = callee === 'json.loads' ? parsedRequest(withoutFallback(arg(0)), ctx) : null;
  if (parsed) return parsed;
  if (INSTANT.test(callee)) return holeValue(n, { kind: 'time', time: 'instant' });
  if (BUCKET.test(callee)) return holeValue(n, { kind: 'time', time: 'bucket' });
  if (RANDOM.test(callee)) return holeValue(n, { kind: 'random' });
  const shard = randomShard(n, callee, ctx);
  if (shard) return shard;
  if (PASS_ARG.test(callee))
    return randomProduct(n, callee, arg(0), ctx) ?? ctx.evaluate(arg(0), ctx) ?? unknownValue(n);
  if (callee === 'format')
    return (
      withSpec(ctx.evaluate(arg(0), ctx), literalText(templateOf(ctx.evaluate(arg(1), ctx), n)) ?? '', n) ??
      unknownValue(n)
    );
  if (callee === 'dict') return kwargsValue(n, ctx);
  if (/^(?:dataclasses\.)?asdict$/.test(callee)) return dumpedInstance(arg(0), ctx) ?? unknownValue(n);
  // `dynamodb.Table(name)` as a value: what a factory returns (`create_connection("chat")`)
  // keeps the table's name, as boto3's `Table.table_name` does.
  if (fn?.type === 'attribute' && fn.childForFieldName('attribute')?.text === 'Table' && argumentAt(n, 0, 'name'))
    return {
      kind: 'object',
      entries: [['table_name', ctx.evaluate(argumentAt(n, 0, 'name'), ctx) ?? unknownValue(n)]],
      span: spanOf(n),
    };
  if (fn?.type === 'attribute') return methodValue(n, fn, ctx);
  const target = fn?.type === 'identifier' ? resolve(fn, ctx) : null;
  if (target?.kind === 'function') return returnValue(n, target.node, ctx);
  if (target?.kind === 'import') return importedReturn(n, target.module, target.name, ctx) ?? namedValue(n, callee);
  return namedValue(n, callee.split('.').pop() ?? callee);
}

/** `random.randint(1, 10)` (inclusive), `random.randrange(n)`, `random.choice(range(n))`. */
function randomShard(n: Node, callee: string, ctx: EvalContext): Value | null {
  const num = (i: number) => numberOf(ctx.evaluate(argumentAt(n, i, null), ctx));
  const has = (i: number) => argumentAt(n, i, null) !== null;
  const from = (a: number | null, b: number | null, count?: ShardCount) =>
    shardValue(n, {
      method: 'random',
      values: a !== null && b !== null ? shardRange(a, b - a) : null,
      ...(count ? { count } : {}),
    });
  if (/^(random\.)?randint$/.test(callee)) {
    const b = num(1);
    return from(num(0), b === null ? null : b + 1, countOfBounds(num(0), argumentAt(n, 1, null), 1, ctx));
  }
  // numpy's randint excludes its upper bound, like randrange.
  if (/^((random\.)?randrange|(np|numpy)\.random\.randint|secrets\.randbelow|randbelow)$/.test(callee)) {
    if (has(1)) return from(num(0), num(1), countOfBounds(num(0), argumentAt(n, 1, null), 0, ctx));
    const bound = argumentAt(n, 0, null);
    const v = ctx.evaluate(bound, ctx);
    const h = soleHole(from(0, numberOf(v)));
    return shardValue(n, { ...h!.shards!, count: shardCountOfExpression(bound, v) });
  }
  if (/^(random|secrets)\.choice$|^choice$/.test(callee)) {
    const items = iterableItems(argumentAt(n, 0, null), ctx);
    if (!items) return holeValue(n, { kind: 'random' });
    const values = items.items?.map(numberOf);
    return shardValue(n, { method: 'random', values: values?.every((x): x is number => x !== null) ? values : null });
  }
  return null;
}

/**
 * The constant that counts the shards of a two-bound pick, so a reader loops over the
 * writers' own name: `randint(0, SHARDS - 1)` and `randrange(1, SHARDS + 1)` count
 * `SHARDS`, as do `randint(1, SHARDS)` and `randrange(0, SHARDS)`. `inclusive` is 1 when
 * the upper bound is one of the picks (randint), 0 when it is not (randrange).
 */
function countOfBounds(low: number | null, high: Node | null, inclusive: number, ctx: EvalContext) {
  if ((low !== 0 && low !== 1) || !high) return undefined;
  // The count N spans low .. high: high is N itself, `N - 1` or `N + 1` as low and the bound's kind say.
  const offset = low - inclusive;
  const operator = high.type === 'binary_operator' ? high.childForFieldName('operator')?.text : null;
  const counted =
    offset === 0
      ? high
      : operator === (offset < 0 ? '-' : '+') && high.childForFieldName('right')?.text === '1'
        ? high.childForFieldName('left')
        : null;
  if (!counted || counted.type === 'integer') return undefined;
  const count = shardCountOfExpression(counted, ctx.evaluate(counted, ctx));
  return count?.name ? count : undefined;
}

/** `int(random.random() * N)` picks one of N shards (`math.ceil` picks 1..N). */
function randomProduct(n: Node, callee: string, inner: Node | null, ctx: EvalContext): Value | null {
  if (inner?.type !== 'binary_operator' || inner.childForFieldName('operator')?.text !== '*') return null;
  const [l, r] = [inner.childForFieldName('left'), inner.childForFieldName('right')];
  const isRandom = (x: Node | null) =>
    x?.type === 'call' && /^random\.random$|^random$/.test(x.childForFieldName('function')?.text ?? '');
  if (!isRandom(l) && !isRandom(r)) return null;
  const countNode = isRandom(l) ? r : l;
  const countValue = ctx.evaluate(countNode, ctx);
  const count = numberOf(countValue);
  const start = callee === 'math.ceil' ? 1 : 0;
  return shardValue(n, {
    method: 'random',
    values: count === null ? null : shardRange(start, count),
    count: shardCountOfExpression(countNode, countValue),
  });
}

function methodValue(n: Node, fn: Node, ctx: EvalContext): Value {
  const method = fn.childForFieldName('attribute')?.text ?? '';
  const recvNode = fn.childForFieldName('object');
  const condition = conditionValue(n, method, recvNode, ctx);
  if (condition) return condition;
  const dumped = DUMP_METHODS.has(method) ? dumpedInstance(recvNode, ctx) : null;
  if (dumped) return dumped;
  const own = methodNode(fn) ?? classMethodNode(recvNode, method, ctx);
  if (own) return returnValue(n, own, ctx);
  const imported = importedClassMethod(n, recvNode, method, ctx);
  if (imported) return imported;
  const recv = ctx.evaluate(recvNode, ctx);
  const recvText = recv?.kind === 'scalar' ? literalText(recv.template) : null;
  if (method === 'format' && recvText !== null) return formatMethod(n, recvText, ctx);
  if (method === 'join' && recvText !== null) return joinValue(n, recvText, ctx);
  const h = recv ? soleHole(recv) : null;
  if (h?.kind === 'time') {
    if (method === 'strftime')
      return holeValue(n, {
        kind: 'time',
        time: strftimeGranularity(literalText(templateOf(ctx.evaluate(argumentAt(n, 0, null), ctx), n))),
        ...(h.input ? { input: true } : {}),
      });
    return holeValue(n, { kind: 'time', time: TIME_KEEPING.test(method) ? h.time : 'bucket' });
  }
  if (SAME_VALUE.test(method) && recv?.kind === 'scalar') return recv;
  if (method !== 'get' && recv?.kind !== 'object' && !/^(self|cls)$/.test(recvNode?.text ?? '')) {
    const mapped = mapperMethod(n, recvNode, method, ctx);
    if (mapped) return mapped;
  }
  if (method === 'get') {
    const key = argumentAt(n, 0, null);
    const keyText = key ? literalText(templateOf(ctx.evaluate(key, ctx), key)) : null;
    const found = memberOf(recv, keyText);
    if (found) return found;
    const fallback = argumentAt(n, 1, 'default');
    // `params.get("board", "global")`.
    if (keyText !== null && fallback)
      return propertyOrDefault(n, recv, keyText, ctx.evaluate(fallback, ctx) ?? unknownValue(fallback));
    if (keyText !== null) return namedValue(n, keyText);
  }
  return namedValue(n, method);
}

/**
 * `Order.key_for(customer_id)` on a class of this file: its `@staticmethod` or `@classmethod`
 * of that name, whose return the call gives (a key builder kept beside a model).
 */
function classMethodNode(recv: Node | null, method: string, ctx: EvalContext): Node | null {
  if (recv?.type !== 'identifier' || !/^[A-Z]/.test(recv.text)) return null;
  const b = resolve(recv, ctx);
  const fn = b?.kind === 'class' ? classAttributes(b.node).get(`def ${method}`)?.[0] : null;
  const decorated = fn?.parent?.type === 'decorated_definition' ? fn.parent : null;
  return decorated && /^@(staticmethod|classmethod)\b/m.test(decorated.text.slice(0, 200)) ? fn! : null;
}

/**
 * `Order.key_for(customer_id)` on a class imported from a module of the workspace: what that
 * method returns to this call. Called on the class, a method is a static or class method
 * (its summary leaves `cls` out as it leaves `self` out).
 */
function importedClassMethod(n: Node, recv: Node | null, method: string, ctx: EvalContext): Value | null {
  if (recv?.type !== 'identifier' || !/^[A-Z]/.test(recv.text)) return null;
  const b = resolve(recv, ctx);
  return b?.kind === 'import' ? importedReturn(n, b.module, `${b.name}.${method}`, ctx) : null;
}

/** `Key("pk").eq(x)` (boto3.dynamodb.conditions) as one key condition clause. */
function conditionValue(n: Node, method: string, recvNode: Node | null, ctx: EvalContext): Value | null {
  const op = KEY_OPS[method];
  if (!op || recvNode?.type !== 'call' || !/^(\w+\.)*Key$/.test(recvNode.childForFieldName('function')?.text ?? ''))
    return null;
  const nameNode = argumentAt(recvNode, 0, 'name');
  const name = nameNode ? literalText(templateOf(ctx.evaluate(nameNode, ctx), nameNode)) : null;
  const valueNode = argumentAt(n, 0, op === 'between' ? 'low_value' : 'value');
  const second = op === 'between' ? argumentAt(n, 1, 'high_value') : null;
  const clause: ConditionClause = {
    attribute: name ?? nameNode?.text ?? '?',
    op,
    value: ctx.evaluate(valueNode, ctx) ?? unknownValue(n),
    ...(second ? { value2: ctx.evaluate(second, ctx) ?? unknownValue(second) } : {}),
    use: spanOf(n),
  };
  return { kind: 'condition', clauses: [clause], span: spanOf(n) };
}

/**
 * `event.to_item()` with `event` of no known class (a parameter): the item the one
 * class of this file, or the one class this file imports by name, that defines
 * `to_item` builds — when it returns a dict. A method name several classes define, or
 * one that returns anything else, is left unread: the receiver could be any of them.
 */
function mapperMethod(n: Node, recvNode: Node | null, method: string, ctx: EvalContext): Value | null {
  if (recvNode?.type !== 'identifier' && recvNode?.type !== 'attribute') return null;
  const own = methodsNamed(n.tree, method);
  if (own.length > 1) return null;
  if (own.length === 1) {
    const v = returnValue(n, own[0], ctx);
    return v.kind === 'object' ? v : null;
  }
  const found = [...importedNames(n.tree).entries()].flatMap(([local, i]) =>
    i.name !== '*' && /^[A-Z]/.test(local) ? [ctx.lookups.functions?.(i.source, `${i.name}.${method}`) ?? null] : [],
  );
  const fns = found.filter((f) => f !== null);
  if (fns.length !== 1 || fns[0].returns?.kind !== 'object') return null;
  return instantiate(fns[0].returns, callArguments(n, fns[0].params, ctx), spanOf(n));
}

/** A call to a function of this file: what it returns (a choice when it returns several things). */
function returnValue(n: Node, fn: Node, ctx: EvalContext): Value {
  const returns = returnedExpressions(fn);
  if (returns.length === 0 || returns.length > 6) return namedValue(n, fn.childForFieldName('name')?.text ?? '');
  const params = pythonFunction(fn)?.params ?? [];
  // Each `return` is an alternative, with this call's arguments in place of the parameters.
  const body = forOneCall(ctx);
  const raw = returns.map((r) => ctx.evaluate(r, body) ?? unknownValue(n));
  const v = returnedToCall(raw, () => callArguments(n, params, ctx), n).value;
  // A key text (`"pk": season_pk(SEASON)`) is this call's value, as from an imported helper:
  // findings and fixes go to the call, the parts keep where their text is written.
  return v.kind === 'scalar' ? { ...v, span: spanOf(n) } : v;
}

/** `from keys import cart_key` then `cart_key("SHARED")`: what the module's function returns to this call. */
function importedReturn(n: Node, module: string, name: string, ctx: EvalContext): Value | null {
  const fn = ctx.lookups.functions?.(module, name);
  if (!fn?.returns) return null;
  return instantiate(fn.returns, callArguments(n, fn.params, ctx), spanOf(n));
}

/** `event["body"] or "{}"`: the text itself, without what stands in when it is absent. */
function withoutFallback(n: Node | null): Node | null {
  const x = n && unwrap(n);
  const op = x?.type === 'boolean_operator' ? x.childForFieldName('operator')?.type : null;
  return op === 'or' ? x!.childForFieldName('left') : x;
}
