/**
 * `new Entity({...}, {...})` of a DynamoDB library (`model/libraries.ts`): the instance
 * as an object of its arguments, each function in them read as what it returns
 * (`default: () => uuid()` is the uuid), so the library's front-end finds the schema
 * wherever the instance is used, in this module or one importing it.
 */
import type { Node } from 'web-tree-sitter';
import { deeper, unknownValue } from '../evaluation';
import type { EvalContext } from '../../model/eval-context';
import {
  isRecordedMethod,
  packageOf,
  RECORDED_BUILDERS,
  RECORDED_CONSTRUCTORS,
  RECORDED_DECORATORS,
  RECORDED_MEMBERS,
  RECORDED_METHODS,
} from '../../model/libraries';
import type { Construction, Entry, Value } from '../../model/value';
import { spanOf } from '../../syntax/span';
import { returnedExpressions } from './functions';
import { isFunction, resolve } from './scope';
import { moduleTables } from './model-tables';

/** The recorded construction `n` makes, or null when its class is no library's. */
export function constructionValue(n: Node, ctx: EvalContext): Value | null {
  const ctor = n.childForFieldName('constructor');
  const imported = ctor ? importedName(ctor, ctx) : null;
  if (imported && RECORDED_CONSTRUCTORS[imported.module]?.includes(imported.name))
    return {
      kind: 'object',
      entries: [],
      span: spanOf(n),
      made: { module: imported.module, name: imported.name, file: '', args: argumentValues(n, ctx) },
    };
  // `new Cat({...})` of a model a builder made (`dynamoose.model("Cat", schema)`): the
  // builder with the construction as its last call, so `cat.save()` finds the model and item.
  if (ctor?.type !== 'identifier' && ctor?.type !== 'member_expression') return null;
  const base = ctx.evaluate(ctor, ctx);
  if (base?.kind !== 'object' || !base.made?.calls) return null;
  const call = { name: 'new', args: argumentValues(n, ctx) };
  return { ...base, span: spanOf(n), made: { ...base.made, calls: [...base.made.calls, call] } };
}

/**
 * The package and name `n` is imported as: `Schema` of `import { Schema } from "dynamoose"`,
 * or `dynamoose.Schema` of the whole module imported (`import * as dynamoose`, a default
 * import, `const dynamoose = require("dynamoose")`), also through `const Schema = dynamoose.Schema`.
 */
function importedName(n: Node, ctx: EvalContext, depth = 0): { module: string; name: string } | null {
  if (n.type === 'identifier') {
    const b = resolve(n, ctx);
    // `const Schema = dynamoose.Schema`: the name it aliases.
    if (b?.kind === 'value' && b.node.type === 'member_expression' && depth === 0) return importedName(b.node, ctx, 1);
    return b?.kind === 'import' ? { module: packageOf(b.source), name: b.name } : null;
  }
  const object = n.type === 'member_expression' ? n.childForFieldName('object') : null;
  const property = n.childForFieldName('property')?.text;
  if (object?.type !== 'identifier' || !property) return null;
  const b = resolve(object, ctx);
  if (b?.kind !== 'import' || (b.name !== '*' && b.name !== 'default')) return null;
  return { module: packageOf(b.source), name: property };
}

export function argumentValues(call: Node, ctx: EvalContext): Value[] {
  const args = call.childForFieldName('arguments')?.namedChildren ?? [];
  return args.flatMap((a) => (a && a.type !== 'comment' ? [argumentValue(a, ctx)] : []));
}

/**
 * A library builder's call (`string()`, `item({...})`) or a call chained on one
 * (`.key()`, `.savedAs("PK")`): the builder with its chain, or null for any other call.
 * Only a chain whose root name is imported from a builder's package is evaluated.
 */
export function builderValue(n: Node, ctx: EvalContext): Value | null {
  const fn = n.childForFieldName('function');
  // `string()`, or `dynamoose.model(...)` on the whole module imported.
  const imported = fn?.type === 'identifier' || fn?.type === 'member_expression' ? importedName(fn, ctx) : null;
  if (imported && RECORDED_BUILDERS[imported.module]?.includes(imported.name)) {
    // A dynamoose model's table is what its module says of it (`new Table(name, [Model])`, defaults).
    const tables =
      imported.module === 'dynamoose' && imported.name === 'model'
        ? moduleTables(n, ctx, importedName, argumentValue)
        : {};
    return {
      kind: 'object',
      entries: [],
      span: spanOf(n),
      made: {
        module: imported.module,
        name: imported.name,
        file: '',
        args: argumentValues(n, ctx),
        calls: [],
        ...tables,
      },
    };
  }
  if (fn?.type !== 'member_expression') return null;
  const recorded = recordedMethod(n, fn, ctx);
  if (recorded) return recorded;
  if (!builderRoot(fn, ctx)) return null;
  const base = ctx.evaluate(fn.childForFieldName('object'), ctx);
  if (base?.kind !== 'object' || !base.made?.calls) return null;
  const call = { name: fn.childForFieldName('property')?.text ?? '', args: argumentValues(n, ctx) };
  return { ...base, span: spanOf(n), made: { ...base.made, calls: [...base.made.calls, call] } };
}

/** `table.getModel('User')` on a recorded construction: the construction with the call added. */
function recordedMethod(n: Node, fn: Node, ctx: EvalContext): Value | null {
  const name = fn.childForFieldName('property')?.text ?? '';
  if (!isRecordedMethod(name)) return null;
  const base = ctx.evaluate(fn.childForFieldName('object'), ctx);
  const m = base?.kind === 'object' ? base.made : undefined;
  if (!m || !RECORDED_METHODS[m.module]?.includes(name)) return null;
  const call = { name, args: argumentValues(n, ctx) };
  return { ...base!, span: spanOf(n), made: { ...m, calls: [...(m.calls ?? []), call] } } as Value;
}

/** `connection.entityManager` on a recorded construction (`RECORDED_MEMBERS`): the construction with the member added. */
export function recordedMember(n: Node, base: Value | null, name: string): Value | null {
  const m = base?.kind === 'object' ? base.made : undefined;
  if (!m || !RECORDED_MEMBERS[m.module]?.includes(name)) return null;
  return { ...base!, span: spanOf(n), made: { ...m, calls: [...(m.calls ?? []), { name, args: [] }] } } as Value;
}

/** Whether a chain's leftmost name is imported from a package with builders. */
function builderRoot(fn: Node, ctx: EvalContext): boolean {
  let n: Node | null = fn;
  for (let i = 0; n && i < 32; i++) {
    if (n.type === 'member_expression') n = n.childForFieldName('object');
    else if (n.type === 'call_expression') n = n.childForFieldName('function');
    else break;
  }
  if (n?.type !== 'identifier') return false;
  const b = resolve(n, ctx);
  return b?.kind === 'import' && !!RECORDED_BUILDERS[packageOf(b.source)];
}

/** An argument's value, with functions read as their returned value and named objects followed. */
function argumentValue(n: Node, ctx: EvalContext): Value {
  const inner = deeper(ctx);
  if (!inner) return unknownValue(n);
  let e = n;
  // `{ ... } as const`, `{ ... } satisfies Schema`, `(x)`.
  while (/^(as_expression|satisfies_expression|parenthesized_expression|non_null_expression)$/.test(e.type)) {
    e = e.namedChild(0) ?? e;
    if (e === n) break;
  }
  if (e.type === 'object' && !e.namedChildren.some((c) => c?.type === 'spread_element')) {
    const entries: Entry[] = [];
    for (const c of e.namedChildren) {
      if (c?.type === 'pair') {
        const k = c.childForFieldName('key');
        const v = c.childForFieldName('value');
        const name = k?.type === 'string' ? k.text.slice(1, -1) : k?.text;
        if (name && v) entries.push([name, argumentValue(v, inner), spanOf(c)]);
      } else if (c?.type === 'method_definition') {
        // `default() { return uuid(); }`
        const name = c.childForFieldName('name')?.text;
        if (name) entries.push([name, returnedValue(c, inner) ?? unknownValue(c), spanOf(c)]);
      } else if (c) {
        const v = ctx.evaluate(c, inner);
        if (v && c.type === 'shorthand_property_identifier') entries.push([c.text, v, spanOf(c)]);
      }
    }
    return { kind: 'object', entries, span: spanOf(e) };
  }
  if (e.type === 'array')
    return {
      kind: 'array',
      items: e.namedChildren.flatMap((c) => (c ? [argumentValue(c, inner)] : [])),
      span: spanOf(e),
    };
  if (isFunction(e)) return returnedValue(e, inner) ?? unknownValue(e);
  if (e.type === 'identifier') {
    // `new Entity(schema, config)` with `const schema = { ... }` in this module.
    const b = resolve(e, inner);
    if (b?.kind === 'value') return argumentValue(b.node, inner);
  }
  return ctx.evaluate(e, inner) ?? unknownValue(e);
}

/** What a function returns when it has one returned expression (`() => uuid()`), else null. */
function returnedValue(fn: Node, ctx: EvalContext): Value | null {
  const returns = returnedExpressions(fn);
  return returns.length === 1 && returns[0] ? ctx.evaluate(returns[0], ctx) : null;
}

/**
 * A class a library decorator makes a model of (`@Entity({ ... }) export class User`,
 * `model/libraries.ts` `RECORDED_DECORATORS`): the decorator's options, then an object
 * of the decorated fields, each an object of its decorators by name with their first
 * argument (`id: { AutoGenerateAttribute: { strategy } }`). `calls` is empty, so
 * `new User()` where the class is imported is recorded as a call on it.
 */
export function decoratedClass(cls: Node, ctx: EvalContext): Construction | null {
  const decorators = decoratorsOf(cls);
  if (decorators.length === 0) return null;
  for (const d of decorators) {
    const call = d.namedChild(0);
    const fn = call?.type === 'call_expression' ? call.childForFieldName('function') : null;
    const imported = fn ? importedName(fn, ctx) : null;
    if (!call || !imported || !RECORDED_DECORATORS[imported.module]?.includes(imported.name)) continue;
    const options = argumentValues(call, ctx)[0] ?? { kind: 'object', entries: [], span: spanOf(call) };
    return {
      module: imported.module,
      name: imported.name,
      file: '',
      args: [options, decoratedFields(cls, ctx)],
      calls: [],
      declared: cls.childForFieldName('name')?.text ?? '',
    };
  }
  return null;
}

/** A class's own decorators and those written before `export` (`@Entity() export class User`). */
function decoratorsOf(cls: Node): Node[] {
  const own = cls.namedChildren.filter((c): c is Node => c?.type === 'decorator');
  const exported = cls.parent?.type === 'export_statement' ? cls.parent.namedChildren : [];
  return [...own, ...exported.filter((c): c is Node => c?.type === 'decorator')];
}

function decoratedFields(cls: Node, ctx: EvalContext): Value {
  const entries: Entry[] = [];
  for (const m of cls.childForFieldName('body')?.namedChildren ?? []) {
    if (m?.type !== 'public_field_definition') continue;
    const name = m.childForFieldName('name')?.text;
    const decorators: Entry[] = m.namedChildren.flatMap((d): Entry[] => {
      const call = d?.type === 'decorator' ? d.namedChild(0) : null;
      const fn = call?.type === 'call_expression' ? call.childForFieldName('function') : null;
      if (!call || fn?.type !== 'identifier') return [];
      const options = argumentValues(call, ctx)[0] ?? { kind: 'object', entries: [], span: spanOf(call) };
      return [[fn.text, options, spanOf(d!)]];
    });
    if (name && decorators.length)
      entries.push([name, { kind: 'object', entries: decorators, span: spanOf(m) }, spanOf(m)]);
  }
  return { kind: 'object', entries, span: spanOf(cls) };
}
