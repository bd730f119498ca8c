/**
 * The classes of a DynamoDB library (`model/libraries.ts`) as the Python evaluator
 * records them (`Value.made`), so a library front-end reads a model wherever it is used,
 * in its module or one importing it (a recorded construction keeps its own positions):
 *
 * - a call of a recorded class (`UnicodeAttribute(hash_key=True, default=lambda: ...)`):
 *   its keyword arguments as one object, then its positional ones, each function read as
 *   what calling it gives (`default=uuid4` is a random value);
 * - a class declared on a recorded base (`class Thread(Model)`, `class StatusIndex(GlobalSecondaryIndex)`,
 *   or on a workspace class that is one): its body as one object, `class Meta` included,
 *   a workspace base's body first;
 * - a call of such a class (`StatusIndex()`, `KeyAttribute(hash_key=True)`): the class, with
 *   the call's arguments (`Construction.call`).
 */
import type { Node, Tree } from 'web-tree-sitter';
import { deeper, unknownValue } from '../evaluation';
import type { EvalContext } from '../../model/eval-context';
import { mayDeclarePythonModels, RECORDED_CONSTRUCTORS } from '../../model/libraries';
import type { Entry, Value } from '../../model/value';
import { spanOf } from '../../syntax/span';
import { referenceValue } from './library';
import { classValue } from './classes';
import { returnedExpressions } from './functions';
import { resolve } from './scope';

interface Recorded {
  module: string;
  name: string;
}

/** The module path an expression names when it is an imported module (`attributes` of `from pynamodb import attributes`). */
function modulePath(n: Node, ctx: EvalContext): string | null {
  if (n.type === 'identifier') {
    const b = resolve(n, ctx);
    if (b?.kind !== 'import') return null;
    if (b.name) return `${b.module}.${b.name}`;
    // `import pynamodb.attributes` binds `pynamodb`, the package: `pynamodb.attributes.X` names the module in full.
    const top = b.module.split('.')[0];
    return top === n.text ? top : b.module;
  }
  if (n.type === 'attribute') {
    const obj = n.childForFieldName('object');
    const head = obj ? modulePath(obj, ctx) : null;
    return head ? `${head}.${n.childForFieldName('attribute')?.text ?? ''}` : null;
  }
  return null;
}

/**
 * The recorded class an expression names (`UnicodeAttribute`, `attributes.UnicodeAttribute`,
 * or one a module of the workspace passes on: `from app.models.base import UnicodeAttribute`), or null.
 */
function recordedClass(n: Node, ctx: EvalContext): Recorded | null {
  if (n.type === 'identifier') {
    const b = resolve(n, ctx);
    if (b?.kind !== 'import') return null;
    if (RECORDED_CONSTRUCTORS[b.module]?.includes(b.name)) return { module: b.module, name: b.name };
    const passed = /^[A-Z]/.test(b.name) ? ctx.evaluate(n, ctx) : null;
    return passed?.kind === 'object' && passed.made?.reference
      ? { module: passed.made.module, name: passed.made.name }
      : null;
  }
  if (n.type !== 'attribute') return null;
  const obj = n.childForFieldName('object');
  const module = obj ? modulePath(obj, ctx) : null;
  const name = n.childForFieldName('attribute')?.text ?? '';
  return module && RECORDED_CONSTRUCTORS[module]?.includes(name) ? { module, name } : null;
}

const importing = new WeakMap<Tree, boolean>();

/**
 * Whether a file may use a recorded library's classes (`mayDeclarePythonModels`: it names
 * `pynamodb`, or calls an attribute or index class it imports from the project's own base
 * module): only there is a call or a class looked at as a library's, so other files pay one
 * text search per tree.
 */
function namesRecordedPackage(n: Node): boolean {
  let found = importing.get(n.tree);
  if (found === undefined) importing.set(n.tree, (found = mayDeclarePythonModels(n.tree.rootNode.text)));
  return found;
}

/** A recorded class as an import names it (`from pynamodb.attributes import UnicodeAttribute`), or null. */
export function recordedReference(n: Node): Value | null {
  const stmt = n.parent;
  if (stmt?.type !== 'import_from_statement') return null;
  const module = stmt.childForFieldName('module_name')?.text ?? '';
  const name = (n.type === 'aliased_import' ? n.childForFieldName('name') : n)?.text ?? '';
  if (!RECORDED_CONSTRUCTORS[module]?.includes(name)) return null;
  return { kind: 'object', entries: [], span: spanOf(n), made: { module, name, file: '', args: [], reference: true } };
}

/** Only a capitalised name can be a class: other calls are not looked at. */
const CLASS_NAME = /(^|\.)[A-Z]\w*$/;

/** A call of a recorded class or of a class declared on one, else null. */
export function constructionValue(call: Node, ctx: EvalContext): Value | null {
  const fn = call.childForFieldName('function');
  if (!fn || !CLASS_NAME.test(fn.text) || (fn.type !== 'identifier' && fn.type !== 'attribute')) return null;
  if (!namesRecordedPackage(call)) return null;
  const recorded = recordedClass(fn, ctx);
  if (recorded) {
    const args = argumentsOf(call, ctx);
    return args ? { kind: 'object', entries: [], span: spanOf(call), made: { ...recorded, file: '', args } } : null;
  }
  // `StatusIndex()`, `KeyAttribute(hash_key=True)`: the declared class, with the call's arguments.
  if (fn.type !== 'identifier') return null;
  const b = resolve(fn, ctx);
  if (b?.kind !== 'class' && b?.kind !== 'import') return null;
  const cls = b.kind === 'class' ? declaredClassValue(b.node, ctx) : ctx.evaluate(fn, ctx);
  if (cls?.kind !== 'object' || !cls.made?.declared) return null;
  const args = argumentsOf(call, ctx);
  // Written here, wherever the class is: `file` is placed with this module's values.
  return args ? { ...cls, span: spanOf(call), made: { ...cls.made, file: '', call: args } } : null;
}

/** A call's keyword arguments as one object, then its positional ones. */
function argumentsOf(call: Node, ctx: EvalContext): Value[] | null {
  const inner = deeper(ctx);
  if (!inner) return null;
  const keywords: Entry[] = [];
  const positional: Value[] = [];
  for (const a of call.childForFieldName('arguments')?.namedChildren ?? []) {
    if (!a || a.type === 'comment') continue;
    if (a.type === 'keyword_argument') {
      const name = a.childForFieldName('name')?.text;
      const v = a.childForFieldName('value');
      if (name && v) keywords.push([name, argumentValue(v, inner), spanOf(a)]);
    } else if (a.type !== 'list_splat' && a.type !== 'dictionary_splat') positional.push(argumentValue(a, inner));
  }
  return [{ kind: 'object', entries: keywords, span: spanOf(call) }, ...positional];
}

/** An argument's value; a function is read as what calling it gives. */
function argumentValue(n: Node, ctx: EvalContext): Value {
  if (n.type === 'lambda') {
    const body = n.childForFieldName('body');
    return (body && ctx.evaluate(body, ctx)) ?? unknownValue(n);
  }
  if (n.type === 'identifier' || n.type === 'attribute') {
    const called = referenceValue(n);
    if (called) return called;
    const b = n.type === 'identifier' ? resolve(n, ctx) : null;
    if (b?.kind === 'function') {
      const returns = returnedExpressions(b.node);
      if (returns.length === 1 && returns[0]) return ctx.evaluate(returns[0], ctx) ?? unknownValue(n);
    }
  }
  return ctx.evaluate(n, ctx) ?? unknownValue(n);
}

/**
 * A class declared on a recorded base, directly or through workspace classes, as its
 * body; null for any other class (read as before, `classes.ts`).
 */
export function declaredClassValue(cls: Node, ctx: EvalContext): Value | null {
  const bases = cls.childForFieldName('superclasses')?.namedChildren ?? [];
  if (bases.length === 0 || !namesRecordedPackage(cls)) return null;
  const inner = deeper(ctx);
  if (!inner) return null;
  let base: Recorded | null = null;
  // Each base's attributes, in the order the bases are written.
  const fromBases: Entry[][] = [];
  for (const written of bases) {
    // `GlobalSecondaryIndex["Thread"]`: the generic class.
    const b = written?.type === 'subscript' ? written.childForFieldName('value') : written;
    if (!b || (b.type !== 'identifier' && b.type !== 'attribute')) continue;
    const recorded = recordedClass(b, inner);
    if (recorded) {
      base ??= recorded;
      continue;
    }
    if (b.type !== 'identifier' || !/^[A-Z]/.test(b.text)) continue;
    // A class of this file is read for its recorded base alone, not evaluated whole.
    const bound = resolve(b, inner);
    if (bound?.kind !== 'class' && bound?.kind !== 'import') continue;
    const v = bound.kind === 'class' ? declaredClassValue(bound.node, inner) : ctx.evaluate(b, inner);
    if (v?.kind === 'object' && v.made?.declared) {
      base ??= { module: v.made.module, name: v.made.name };
      const body = v.made.args[0];
      if (body?.kind === 'object') fromBases.push(body.entries);
      continue;
    }
    // A mixin (`class TenantKeys:` declaring `tenant = UnicodeAttribute(hash_key=True)`): its recorded attributes.
    const mixin = bound.kind === 'class' ? classValue(bound.node, inner) : v;
    if (mixin?.kind === 'object') fromBases.push(mixin.entries.filter(([, e]) => e.kind === 'object' && e.made));
  }
  if (!base) return null;
  // Python looks a name up in the first base that has it: the first base is read last, so it wins.
  const entries: Entry[] = fromBases.reverse().flat();
  for (const stmt of cls.childForFieldName('body')?.namedChildren ?? []) {
    if (stmt?.type === 'class_definition') {
      // `class Meta:`: read like any class, after what its bases declare (`class Meta(BaseModel.Meta)`).
      const name = stmt.childForFieldName('name')?.text;
      const v = ctx.evaluate(stmt, inner);
      if (name && v) entries.push([name, withBases(stmt, v, inner), spanOf(stmt)]);
      continue;
    }
    const a = stmt?.type === 'expression_statement' ? stmt.namedChild(0) : null;
    const left = a?.type === 'assignment' ? a.childForFieldName('left') : null;
    const right = a?.childForFieldName('right');
    if (left?.type === 'identifier' && right)
      entries.push([left.text, ctx.evaluate(right, inner) ?? unknownValue(right), spanOf(stmt!)]);
  }
  const body: Value = { kind: 'object', entries, span: spanOf(cls) };
  const name = cls.childForFieldName('name')?.text ?? '';
  return { kind: 'object', entries, span: spanOf(cls), made: { ...base, file: '', args: [body], declared: name } };
}

/** A nested class's own entries after those of the classes it derives from (its own win, as in Python). */
function withBases(cls: Node, v: Value, ctx: EvalContext): Value {
  if (v.kind !== 'object') return v;
  const inherited: Entry[] = [];
  for (const b of cls.childForFieldName('superclasses')?.namedChildren ?? []) {
    if (!b || (b.type !== 'identifier' && b.type !== 'attribute')) continue;
    const base = ctx.evaluate(b, ctx);
    if (base?.kind === 'object') inherited.push(...base.entries);
  }
  return inherited.length ? { ...v, entries: [...inherited, ...v.entries] } : v;
}
