/**
 * What a PynamoDB call's receiver is: a model class (`Thread.get`), an index of one
 * (`Thread.status_index.query`), an instance (`thread.save()`, made by `Thread(...)`
 * or `Thread.get(...)`, or an item of a query or scan loop, or `self` in a model's
 * method, or a parameter annotated with the model), or a batch (`with
 * Thread.batch_write() as batch`). Names are followed through the language
 * front-end (`FrontEnd.valueOf`); only a capitalised name is evaluated as a class, so
 * the `.get(` of a dict costs a look at its receiver's text.
 */
import type { Node } from 'web-tree-sitter';
import type { EvalContext } from '../../model/eval-context';
import type { FrontEnd } from '../../model/frontend';
import type { Value } from '../../model/value';
import { spanOf } from '../../syntax/span';
import { modelSchema, type IndexSchema, type ModelSchema } from './schema';

export interface Instance {
  model: ModelSchema;
  /** The attributes it was given (Python name → value), in order. */
  given: Array<[string, Value]>;
}

/** The positional argument at `pos`, else the keyword argument `name` (null past a `*args`). */
export function argAt(call: Node, pos: number, name: string | null): Node | null {
  const list = call.childForFieldName('arguments');
  if (list?.type !== 'argument_list') return null;
  let i = 0;
  for (const a of list.namedChildren) {
    if (!a || a.type === 'comment') continue;
    if (a.type === 'keyword_argument') {
      if (name !== null && a.childForFieldName('name')?.text === name) return a.childForFieldName('value');
      continue;
    }
    if (a.type === 'list_splat' || a.type === 'dictionary_splat') return null;
    if (i++ === pos) return a;
  }
  return null;
}

/** Keyword arguments by name (a `**spread` is not read). */
export function keywordArgs(call: Node): Array<[string, Node]> {
  const list = call.childForFieldName('arguments');
  const out: Array<[string, Node]> = [];
  for (const a of list?.namedChildren ?? []) {
    if (a?.type !== 'keyword_argument') continue;
    const name = a.childForFieldName('name')?.text;
    const v = a.childForFieldName('value');
    if (name && v) out.push([name, v]);
  }
  return out;
}

const CLASS_NAME = /^[A-Z]\w*$/;

/** The model a name or attribute names (`Thread`, `models.Thread`), or null. */
export function modelAt(n: Node | null, ctx: EvalContext): ModelSchema | null {
  if (!n) return null;
  const last =
    n.type === 'attribute' ? n.childForFieldName('attribute')?.text : n.type === 'identifier' ? n.text : null;
  if (!last || !CLASS_NAME.test(last)) return null;
  return modelSchema(ctx.evaluate(n, ctx) ?? undefined);
}

/** `Thread.status_index`: the model and the index. */
export function indexAt(n: Node | null, ctx: EvalContext): { model: ModelSchema; index: IndexSchema } | null {
  if (n?.type !== 'attribute') return null;
  const model = modelAt(n.childForFieldName('object'), ctx);
  const index = model?.indexes.get(n.childForFieldName('attribute')?.text ?? '');
  return model && index ? { model, index } : null;
}

const LISTING = /^(query|scan|batch_get)$/;

/** The instance an expression is, or null. */
export function instanceOf(n: Node | null, ctx: EvalContext, fe: FrontEnd, depth = 0): Instance | null {
  if (!n || depth > 4) return null;
  switch (n.type) {
    case 'parenthesized_expression':
    case 'await':
      return instanceOf(n.namedChild(0), ctx, fe, depth + 1);
    case 'call':
      return madeInstance(n, ctx);
    case 'identifier': {
      if (n.text === 'self') return selfInstance(n, ctx);
      const bound = fe.valueOf(n, ctx);
      if (bound) return instanceOf(bound, ctx, fe, depth + 1);
      return loopItem(n, ctx) ?? annotated(n, ctx);
    }
    default:
      return null;
  }
}

/** `Thread(forum_name=..., subject=...)` (the hash and range key may come first, by position) or `Thread.get(h, r)`. */
function madeInstance(call: Node, ctx: EvalContext): Instance | null {
  const fn = call.childForFieldName('function');
  if (fn?.type === 'attribute' && fn.childForFieldName('attribute')?.text === 'get') {
    const model = modelAt(fn.childForFieldName('object'), ctx);
    if (!model) return null;
    return { model, given: keysGiven(call, model, 'hash_key', 'range_key', ctx) };
  }
  const model = modelAt(fn, ctx);
  if (!model) return null;
  const given = keysGiven(call, model, 'hash_key', 'range_key', ctx);
  for (const [name, v] of keywordArgs(call)) {
    if (model.attributes.has(name) && !given.some(([g]) => g === name))
      given.push([name, ctx.evaluate(v, ctx) ?? unknown(v)]);
  }
  return { model, given };
}

/** The hash and range key a call gives by position or by keyword. */
export function keysGiven(
  call: Node,
  m: ModelSchema,
  hashName: string,
  rangeName: string,
  ctx: EvalContext,
): Array<[string, Value]> {
  const out: Array<[string, Value]> = [];
  const h = argAt(call, 0, hashName);
  if (h) out.push([m.hash.name, ctx.evaluate(h, ctx) ?? unknown(h)]);
  const r = m.range ? argAt(call, 1, rangeName) : null;
  if (r && m.range) out.push([m.range.name, ctx.evaluate(r, ctx) ?? unknown(r)]);
  return out;
}

function unknown(n: Node): Value {
  return {
    kind: 'scalar',
    template: { parts: [{ hole: { kind: 'unknown', source: n.text.slice(0, 80) } }] },
    span: spanOf(n),
  };
}

/** `self` in a method of a model: an instance whose keys are not read. */
function selfInstance(n: Node, ctx: EvalContext): Instance | null {
  for (let p = n.parent; p; p = p.parent) {
    if (p.type !== 'class_definition') continue;
    const model = modelSchema(ctx.evaluate(p, ctx) ?? undefined);
    return model ? { model, given: [] } : null;
  }
  return null;
}

/** `for thread in Thread.query(...)`: an item of the model. */
function loopItem(n: Node, ctx: EvalContext): Instance | null {
  for (let p = n.parent; p; p = p.parent) {
    if (p.type === 'function_definition' || p.type === 'module') return null;
    if (p.type !== 'for_statement' || p.childForFieldName('left')?.text !== n.text) continue;
    const right = p.childForFieldName('right');
    const fn = right?.type === 'call' ? right.childForFieldName('function') : null;
    if (fn?.type !== 'attribute' || !LISTING.test(fn.childForFieldName('attribute')?.text ?? '')) return null;
    const owner = fn.childForFieldName('object');
    const model = modelAt(owner, ctx) ?? indexAt(owner, ctx)?.model;
    return model ? { model, given: [] } : null;
  }
  return null;
}

/** `def bump(thread: Thread)`: an instance whose keys are not read. */
function annotated(n: Node, ctx: EvalContext): Instance | null {
  for (let p = n.parent; p; p = p.parent) {
    if (p.type !== 'function_definition') continue;
    for (const param of p.childForFieldName('parameters')?.namedChildren ?? []) {
      if (param?.type !== 'typed_parameter' && param?.type !== 'typed_default_parameter') continue;
      const name = param.type === 'typed_parameter' ? param.namedChild(0) : param.childForFieldName('name');
      if (name?.text !== n.text) continue;
      const model = modelAt(param.childForFieldName('type')?.namedChild(0) ?? null, ctx);
      return model ? { model, given: [] } : null;
    }
    return null;
  }
  return null;
}

/** `with Thread.batch_write() as batch` (or `batch = Thread.batch_write()`): the model it writes. */
export function batchOf(n: Node | null, ctx: EvalContext, fe: FrontEnd): ModelSchema | null {
  if (n?.type !== 'identifier') return null;
  const writer = (call: Node | null): ModelSchema | null => {
    const fn = call?.type === 'call' ? call.childForFieldName('function') : null;
    return fn?.type === 'attribute' && fn.childForFieldName('attribute')?.text === 'batch_write'
      ? modelAt(fn.childForFieldName('object'), ctx)
      : null;
  };
  const bound = fe.valueOf(n, ctx);
  if (bound) return writer(bound);
  for (let p = n.parent; p; p = p.parent) {
    if (p.type === 'function_definition') return null;
    if (p.type !== 'with_statement') continue;
    for (const as of p.descendantsOfType('as_pattern')) {
      if (!as || as.childForFieldName('alias')?.text !== n.text) continue;
      const found = writer(as.namedChild(0));
      if (found) return found;
    }
  }
  return null;
}
