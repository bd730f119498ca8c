/**
 * Calls in this file to wrappers summarised in other modules: the DynamoDB request a
 * wrapper makes, with this caller's arguments put in, becomes a call site of this
 * file at the call — the hot value is judged (and reported) where it is written.
 *
 * Recognised callees: an imported function (`save(...)`, `db.save(...)`), a static
 * method of an imported class (`Post.inPartition(...)`), a method on an instance of
 * an imported class (`const repo = new Repo(); repo.list(...)`, `dao = ItemDao(...)`),
 * and an inherited method called on `this`/`self`/`super` in a subclass of one.
 */
import type { Node } from 'web-tree-sitter';
import { newContext } from '../evaluation';
import { type EvalContext } from '../../model/eval-context';
import { accessesOfCallSite } from '../../requests/interpret';
import { type CallSite } from '../../model/call-site';
import type { Classification, Declaration } from '../../model';
import { classifyAccess, literalText } from '../../model/template';
import { moveSpans } from '../../syntax/positions';
import { spanOf } from '../../syntax/span';
import { entryOf, type Value } from '../../model/value';
import { enclosingClass } from './functions';
import type { FrontEnd, ImportedName, SourceFile } from '../../model/frontend';
import { callArguments } from './arguments';
import { importedOrigins, instantiate, substitute, type Arguments } from './instantiate';
import { leftOut } from './left-out';
import { Depth } from '../../syntax/depth';
import { baseMethod, classNamedIn, definitionOf, instanceClassOf, methodOf } from './resolve';
import { injectedTable, type ClassRef } from './injected';
import type { FunctionSummary, ModuleSummary, ModulesFrom } from '../../model/summary';

export function wrapperCalls(f: SourceFile, fe: FrontEnd, modulesFrom: ModulesFrom): CallSite[] {
  const { tree, file, language, lookups } = f;
  const imported = fe.importedNames(tree);
  const modules = new Map<string, ModuleSummary | null>();
  const moduleOf = (source: string) => {
    if (!modules.has(source)) modules.set(source, modulesFrom(file, language, source));
    return modules.get(source)!;
  };
  const wrapping = new Map<string, { module: ModuleSummary; name: ImportedName }>();
  for (const [local, name] of imported) {
    const m = moduleOf(name.source);
    if (
      m &&
      (m.wraps ||
        inheritsWrappers(m) ||
        m.reexports.length > 0 ||
        makesObjects(m) ||
        m.instances.has(name.name === '*' ? 'default' : name.name) ||
        m.reexports.length > 0)
    )
      wrapping.set(local, { module: m, name });
    // `from events import repo`: the name is a module of the package.
    const sub = !m && fe.importsModulesByName && name.name !== '*' ? `${name.source}.${name.name}` : null;
    const whole = sub ? moduleOf(sub) : null;
    if (whole && (whole.wraps || inheritsWrappers(whole)))
      wrapping.set(local, { module: whole, name: { source: sub!, name: '*' } });
  }
  if (wrapping.size === 0) return [];
  const ctx = newContext(fe.evaluate, lookups);
  const finder: Finder = { fe, wrapping, modulesFrom, ctx };
  const out: CallSite[] = [];
  for (const call of tree.rootNode.descendantsOfType(fe.syntax.call)) {
    if (!call) continue;
    const callee = calleeOf(call, finder);
    const fn = callee?.fn;
    if (!fn || fn.sites.length === 0) continue;
    const args = callArguments(call, fn.params, ctx);
    const defaulted = leftOut(call, fn, args, spanOf(call));
    for (const site of fn.sites) {
      const chosen = site.dispatch ? dispatched(site, args) : site;
      const placed = (s: CallSite) =>
        withInjectedTable(siteAtCaller(s, call, file, args, defaulted), s, callee.cls, file, ctx);
      if (chosen) out.push(placed(chosen));
      else if (site.dispatch) out.push(unchosen(placed(site), call, fn, site));
    }
  }
  return out;
}

/** A site whose table is a field of the instance's class, with the table its construction passes. */
function withInjectedTable(
  placed: CallSite,
  site: CallSite,
  cls: ClassRef | null,
  file: string,
  ctx: EvalContext,
): CallSite {
  const got = injectedTable(site, cls, file, ctx);
  return got ? { ...placed, table: got.table, injected: got.injected } : placed;
}

/** A module with factories (`createRepo()`, a `RepositoryFactory`): what they make may wrap calls. */
function makesObjects(m: ModuleSummary): boolean {
  for (const fn of m.functions.values()) if (fn.makes) return true;
  for (const c of m.classes.values()) for (const fn of c.methods.values()) if (fn.makes) return true;
  return false;
}

/** A module whose classes may extend wrappers elsewhere: followed only when a caller names them. */
function inheritsWrappers(m: ModuleSummary): boolean {
  for (const c of m.classes.values()) if (c.bases.length > 0) return true;
  return false;
}

interface Finder {
  fe: FrontEnd;
  wrapping: Map<string, { module: ModuleSummary; name: ImportedName }>;
  modulesFrom: ModulesFrom;
  ctx: EvalContext;
}

/** The summarised function a call reaches, and the class of the instance it is called on when that is known. */
function calleeOf(call: Node, f: Finder): { fn: FunctionSummary; cls: ClassRef | null } | null {
  let cls: ClassRef | null = null;
  const fn = functionCalled(call, f, (c) => (cls = c));
  return fn ? { fn, cls } : null;
}

/** The summarised function a call reaches, or null; `instance` is told the class of an instance it is a method of. */
function functionCalled(call: Node, f: Finder, instance: (c: ClassRef) => void): FunctionSummary | null {
  const callee = f.fe.calleeOf ? f.fe.calleeOf(call) : call.childForFieldName('function');
  if (!callee) return null;
  const methodOfInstance = (cls: ClassRef | null, method: string) => {
    if (cls) instance(cls);
    return cls ? methodOf(cls.module, cls.name, method, f.modulesFrom, 0) : null;
  };
  if (callee.type === 'identifier') {
    const w = f.wrapping.get(callee.text);
    return w ? exported(w.module, w.name.name, f) : null;
  }
  if (callee.type !== f.fe.syntax.member) return null;
  const object = callee.childForFieldName('object');
  const method = callee.childForFieldName(f.fe.syntax.memberName)?.text;
  if (!object || !method) return null;
  if (object.type === 'this' || object.type === 'super' || /^(self|cls|super\(\))$/.test(object.text)) {
    return inherited(call, method, f);
  }
  if (f.fe.isOwnField(object)) {
    const name = f.fe.fieldClassName(object, f.ctx);
    const w = name ? f.wrapping.get(name) : undefined;
    const cls = w ? classRef(w.module, w.name.name, f) : null;
    return cls ? methodOf(cls.module, cls.name, method, f.modulesFrom, 0) : null;
  }
  // `new Repo().list(...)`, Python `Repo().list(...)`.
  const made =
    object.type === 'new_expression'
      ? object.childForFieldName('constructor')
      : object.type === 'call'
        ? object.childForFieldName('function')
        : null;
  if (made?.type === 'identifier') {
    const w = f.wrapping.get(made.text);
    const cls = w ? classRef(w.module, w.name.name, f) : null;
    if (cls) return methodOfInstance({ ...cls, made: [object] }, method);
    // Not an imported class: maybe a function of this file that returns an instance (below).
  }
  if (object.type === 'call' || object.type === 'call_expression') {
    // `factory.createRoomRepository().addMember(...)`.
    return methodOfInstance(classOfExpression(object, f, Depth.start(MAX_CLASS_DEPTH)), method);
  }
  if (object.type !== 'identifier') return null;
  const w = f.wrapping.get(object.text);
  if (w) {
    if (w.name.name === '*') {
      // `const presence = require("./presence")` of a module that is `module.exports = new PresenceStore()`.
      const whole = instanceClassOf(w.module, 'default', f.modulesFrom);
      return (
        exported(w.module, method, f) ?? (whole ? methodOf(whole.module, whole.name, method, f.modulesFrom, 0) : null)
      );
    }
    // A class (a static method) or an instance the module made (`export const counters = new Counters()`).
    const cls = classRef(w.module, w.name.name, f) ?? instanceClassOf(w.module, w.name.name, f.modulesFrom);
    if (cls) return methodOf(cls.module, cls.name, method, f.modulesFrom, 0);
    // An object of functions (`const Dynamo = { getAllInSet: async (...) => ... }; export default Dynamo`):
    // its functions are the module's, named by their keys.
    return w.module.functions.get(method) ?? null;
  }
  return methodOfInstance(instanceClass(object, f, Depth.start(MAX_CLASS_DEPTH)), method);
}

/** The function a module exports as `name` (itself or through its re-exports). */
function exported(m: ModuleSummary, name: string, f: Finder): FunctionSummary | null {
  const d = definitionOf(m, name, f.modulesFrom);
  return d?.module.functions.get(d.name) ?? null;
}

/** The class a module exports as `name`, with the module that defines it. */
function classRef(m: ModuleSummary, name: string, f: Finder): { module: ModuleSummary; name: string } | null {
  const d = definitionOf(m, name, f.modulesFrom);
  return d && d.module.classes.has(d.name) ? d : null;
}

/** `this.write(...)` in a class extending an imported one (and not defining `write` itself). */
function inherited(call: Node, method: string, f: Finder): FunctionSummary | null {
  const cls = enclosingClass(call, f.fe);
  if (!cls || definesMethod(cls, method)) return null;
  for (const base of f.fe.baseNames(cls)) {
    const [head] = base.split('.');
    const w = f.wrapping.get(head);
    if (!w) continue;
    const name = w.name.name === '*' ? base.split('.').slice(1).join('.') : w.name.name;
    const found = baseMethod(
      w.module,
      name === 'default' ? (w.module.defaultExport ?? '') : name,
      method,
      f.modulesFrom,
      0,
    );
    if (found) return found;
  }
  return null;
}

function definesMethod(cls: Node, method: string): boolean {
  for (const m of cls.childForFieldName('body')?.namedChildren ?? []) {
    const def = m?.type === 'decorated_definition' ? m.childForFieldName('definition') : m;
    const isMethod = def?.type === 'method_definition' || def?.type === 'function_definition';
    if (isMethod && def.childForFieldName('name')?.text === method) return true;
  }
  return false;
}

/**
 * `repo` bound to `new Repo(...)` / `Repo(...)` where `Repo` is an imported class.
 * `depth` is what is left of one budget for the names and calls followed to get here,
 * shared by the whole search: a name bound to a call on itself (`all =
 * all.concat(page.Items)`, `items = items.filter(...)` after `items = await
 * repo.query(x)`, `a = b.m(); b = a.m()`) would otherwise be followed for ever.
 */
function instanceClass(id: Node, f: Finder, depth: Depth): ClassRef | null {
  if (depth.spent) return null;
  const value = f.fe.valueOf(id, f.ctx);
  return value ? classOfExpression(value, f, depth.deeper()) : null;
}

/** How many names and factory calls an instance's class is followed through (`repo = factory.make()` ...). */
const MAX_CLASS_DEPTH = 3;

/**
 * The class of the object an expression makes: `new Repo()`, Python `Repo()`, or what a
 * factory returns (`createRepo()`, `Allocator.from_env()`, `factory.createRoomRepository()`).
 */
function classOfExpression(n: Node, f: Finder, depth: Depth): ClassRef | null {
  if (depth.spent) return null;
  const e = n.type === 'await_expression' || n.type === 'await' ? n.namedChild(0) : n;
  if (!e) return null;
  const made = e.type === 'new_expression' ? e.childForFieldName('constructor') : f.fe.constructorOf(e);
  if (made?.type === 'identifier') {
    const w = f.wrapping.get(made.text);
    const cls = w ? classRef(w.module, w.name.name, f) : null;
    if (cls) return { ...cls, made: [e] };
  }
  const qualified = made ? classOfQualified(made, f) : null;
  if (qualified) return { ...qualified, made: [e] };
  if (e.type !== 'call' && e.type !== 'call_expression') return null;
  // A parameter a framework fills by calling a provider (`Depends(get_repo)`): what `get_repo()` makes.
  const provider = f.fe.dependencyProvider?.(e) ?? null;
  const callee = provider ?? e.childForFieldName('function');
  const factory = factoryOf(callee, f, depth);
  if (factory?.fn.makes) {
    const cls = classNamedIn(factory.module, factory.fn.makes, f.modulesFrom);
    const made = factory.fn.madeWith;
    if (!cls || !made) return cls;
    // What the factory gives the constructor, with this call's arguments in (`get_dal(os.environ["T"])`;
    // a framework calling a provider passes nothing seen here).
    const args = provider ? new Map() : callArguments(e, factory.fn.params, f.ctx);
    const given = {
      span: made.span,
      positional: made.positional.map((v) => substitute(v, args)),
      named: made.named.map(([k, v]): [string, Value] => [k, substitute(v, args)]),
      file: factory.module.file,
    };
    return { ...cls, given };
  }
  return ownFactoryClass(callee, f, depth);
}

/** `storage.NotesTable` / `new storage.NotesTable()`: a class of a module imported whole. */
function classOfQualified(made: Node, f: Finder): ClassRef | null {
  const object = made.type === f.fe.syntax.member ? made.childForFieldName('object') : null;
  const name = made.childForFieldName(f.fe.syntax.memberName)?.text;
  const w = object?.type === 'identifier' ? f.wrapping.get(object.text) : undefined;
  return w?.name.name === '*' && name ? classRef(w.module, name, f) : null;
}

/**
 * A function of this file that hands out an instance: `return Store(...)`, or a lazily made
 * singleton (`global _DB; if _DB is None: _DB = db.Store(...); return _DB`, `if (!store)
 * store = new Store(); return store;`), as a Chalice app's `get_app_db()` does.
 */
function ownFactoryClass(callee: Node | null, f: Finder, depth: Depth): ClassRef | null {
  if (callee?.type !== 'identifier') return null;
  const fn = f.fe.functionOf(callee, f.ctx);
  if (!fn) return null;
  let found: ClassRef | null = null;
  // Every instance it may hand out (`if (kind === "eu") return new Repo(EU_TABLE); return new Repo(US_TABLE)`):
  // the class is the first one's, its constructions all of them, or none when one is not seen.
  const made: Node[] = [];
  let allSeen = true;
  for (const r of f.fe.returnedExpressions(fn)) {
    const values = r?.type === 'identifier' ? assignedIn(fn, r.text, f.fe) : r ? [r] : [];
    if (!r || (r.type === 'identifier' && values.length === 0)) allSeen = false;
    for (const v of values) {
      const cls = classOfExpression(v, f, depth.deeper());
      if (!found && cls) found = cls;
      if (cls && found && cls.module === found.module && cls.name === found.name && cls.made) made.push(...cls.made);
      else if (!isNothing(v)) allSeen = false;
    }
  }
  if (!found) return null;
  const { made: _, ...cls } = found as ClassRef;
  return allSeen && made.length ? { ...cls, made } : cls;
}

/** `None`, `null`, `undefined`: what a lazy singleton starts as, not an instance it hands out. */
const isNothing = (n: Node) => /^(none|null|undefined)$/.test(n.type) || n.text === 'undefined';

/** The values `name` is assigned inside `fn` (`_DB = Store(...)`, `store = new Store()`). */
function assignedIn(fn: Node, name: string, fe: FrontEnd): Node[] {
  return fn
    .descendantsOfType(fe.syntax.assignment)
    .filter((a): a is Node => !!a && a.childForFieldName('left')?.text === name)
    .flatMap((a) => a.childForFieldName('right') ?? []);
}

/** The summarised function a call calls, with the module it is in (for the class names it writes). */
function factoryOf(
  callee: Node | null,
  f: Finder,
  depth: Depth,
): { fn: FunctionSummary; module: ModuleSummary } | null {
  if (callee?.type === 'identifier') {
    const w = f.wrapping.get(callee.text);
    const d = w ? definitionOf(w.module, w.name.name, f.modulesFrom) : null;
    const fn = d?.module.functions.get(d.name);
    return d && fn ? { fn, module: d.module } : null;
  }
  const object = callee?.childForFieldName('object');
  const method = callee?.childForFieldName(f.fe.syntax.memberName)?.text;
  if (!object || !method) return null;
  const w = object.type === 'identifier' ? f.wrapping.get(object.text) : undefined;
  const cls =
    (w && classRef(w.module, w.name.name, f)) ??
    (object.type === 'identifier'
      ? instanceClass(object, f, depth.deeper())
      : classOfExpression(object, f, depth.deeper()));
  const fn = cls ? methodOf(cls.module, cls.name, method, f.modulesFrom, 0) : null;
  return cls && fn ? { fn, module: cls.module } : null;
}

/** A wrapper choosing its operation by name (`call("put", params)`): the one this caller's literal names, or null. */
function dispatched(site: CallSite, args: Arguments): CallSite | null {
  const v = args.get(site.dispatch!.param);
  const name = v?.kind === 'scalar' ? literalText(v.template) : null;
  const chosen = name !== null ? site.dispatch!.operations[name] : undefined;
  if (!chosen) return null;
  const { dispatch: _, ...rest } = site;
  return { ...rest, operation: chosen[0], sdk: chosen[1] };
}

/**
 * A call to a wrapper choosing its operation by name whose name is not a literal here
 * (`call(action, params)`): which operation it makes is not known, so the site keeps
 * only its table (no key is judged) and says what chose it, to be counted as a call
 * not understood rather than left out of the counts.
 */
function unchosen(placed: CallSite, call: Node, fn: FunctionSummary, site: CallSite): CallSite {
  const { dispatch: _, ...rest } = placed;
  const table = entryOf(placed.input, 'TableName');
  const list = call.childForFieldName('arguments')?.namedChildren.filter((a) => a && a.type !== 'comment') ?? [];
  const arg = list[fn.params.indexOf(site.dispatch!.param)];
  return {
    ...rest,
    input: { kind: 'object', entries: table ? [table] : [], span: placed.span },
    operationUnread: arg?.text ?? site.dispatch!.param,
  };
}

/** A wrapper's call site as this caller makes it: at the call, with the caller's arguments. */
function siteAtCaller(
  site: CallSite,
  call: Node,
  file: string,
  args: Arguments,
  defaulted: Declaration[] = [],
): CallSite {
  const at = spanOf(call);
  const passedIn = importedOrigins(args, file);
  const placed = moveSpans({ ...site, file: '', input: null as Value | null }, () => at, '');
  return {
    ...placed,
    file,
    span: at,
    input: instantiate(site.input, args, at),
    through: { file: site.file, span: site.span },
    wrapperClasses: ownClasses(site),
    ...(defaulted.length ? { defaulted } : {}),
    ...(passedIn.length ? { passedIn } : {}),
  };
}

const judged = new WeakMap<CallSite, Classification[]>();

/** How the wrapper's call is judged on its own, once per summarised site. */
function ownClasses(site: CallSite): Classification[] {
  let c = judged.get(site);
  if (!c) judged.set(site, (c = accessesOfCallSite(site).map(classifyAccess)));
  return c;
}
