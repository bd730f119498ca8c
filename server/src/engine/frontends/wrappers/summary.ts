/**
 * A module's functions summarised once, so a call in another file can be judged
 * without reading the module again: which DynamoDB requests a function makes from
 * its parameters (a wrapper: `save(pk, sk)`, `BaseRepo.write(item)`), and what it
 * returns (`cartKey(owner)` returns `{ pk: owner, sk: "CART" }`). Parameters stay
 * marked holes (`Hole.param`); each caller puts in its own arguments.
 */
import type { ClassSummary, FunctionSummary, MadeWith, ModuleSummary, ModulesFrom } from '../../model/summary';
import type { Node, Tree } from 'web-tree-sitter';
import { envLookupReturn, newContext, placeOrigins, unknownValue } from '../evaluation';
import type { Declaration } from '../../model';
import { spanOf } from '../../syntax/span';
import type { Value } from '../../model/value';
import { wrapperCalls } from './callers';
import { hasParamHole } from './instantiate';
import { followLocalCalls } from './local-calls';
import { enclosingNamedFunction } from './functions';
import { cacheHelperAt } from '../cached-reads';
import type { FrontEnd, NamedFunction, SourceFile } from '../../model/frontend';

/** At most this many functions of a module have their returns followed (a generated module has thousands). */
const MAX_RETURNS = 300;

export function summarizeModule(
  source: SourceFile,
  /** The front-end of the module's language, as registered (its libraries' call sites included). */
  fe: FrontEnd,
  imports: Map<string, { source: string; name: string }>,
  withSites: boolean,
  /** Other modules' summaries, to follow wrappers this module's functions call (a service calling a repository). */
  modulesFrom?: ModulesFrom,
): ModuleSummary {
  const { tree, file, language, lookups } = source;
  const summary: ModuleSummary = {
    file,
    language,
    functions: new Map(),
    classes: new Map(),
    imports,
    wraps: false,
    reexports: fe.reexports(tree),
    instances: fe.moduleInstances(tree),
  };
  const ctx = () => newContext(fe.evaluate, { ...lookups, summary: true });
  const summaryOf = (f: NamedFunction): FunctionSummary => {
    const table = f.owner ? classOf(summary, f.owner, null).methods : summary.functions;
    let s = table.get(f.name);
    if (!s) {
      s = { name: f.name, owner: f.owner, params: f.params, sites: [], returns: null };
      if (f.holder) s.holder = f.holder;
      table.set(f.name, s);
    }
    return s;
  };
  let followed = 0;
  for (const f of namedFunctions(tree, fe)) {
    const s = summaryOf(f);
    if (followed++ < MAX_RETURNS) s.returns = returnOf(f.node, fe, ctx());
    if (s.returns) s.returns = placeOrigins(s.returns, file);
    const made = madeClass(f, fe);
    if (made) {
      s.makes = made.name;
      const given = madeWith(made.node, fe, file, ctx());
      if (given) s.madeWith = given;
    }
    const defaults = (f.defaults ?? []).flatMap((d) => defaultOf(d, file, ctx()));
    if (defaults.length) s.defaults = defaults;
  }
  for (const cls of classes(tree, fe)) {
    const name = cls.childForFieldName('name')?.text;
    if (!name) continue;
    const c = classOf(summary, name, fe.baseNames(cls));
    const implemented = implementedNames(cls);
    if (implemented.length) c.implements = implemented;
    const injected = fe.injectedFields(cls);
    if (injected) c.injected = injected;
  }
  if (withSites) {
    const own = { ...lookups, summary: true };
    const sites = [
      ...fe.callSites({ ...source, lookups: own }),
      ...(modulesFrom ? wrapperCalls({ ...source, lookups: own }, fe, modulesFrom) : []),
    ];
    for (const site of sites) {
      // A site on a table its class's constructor keeps (`self._table`) is followed too: the
      // callers' constructions name the table (`TableGiven`), though the key is the method's own.
      const param = hasParamHole(site.input);
      if (!param && !site.tableField) continue;
      const at = { row: site.span.startLine, column: site.span.startColumn };
      const node = tree.rootNode.descendantForPosition(at);
      const f = node ? enclosingNamedFunction(node, fe) : null;
      if (!f) continue;
      // A call the cache fix has wrapped is served from memory at every caller too.
      const cachedBy = cacheHelperAt(tree, site.span);
      const followed = param ? site : { ...site, tableOnly: true as const };
      summaryOf(f).sites.push(placeOrigins(cachedBy ? { ...followed, cachedBy } : followed, file));
      if (param) summary.wraps = true;
    }
    followLocalCalls(tree, file, fe, summary, summaryOf, ctx);
  }
  for (const [local, target] of fe.exportAliases(tree)) {
    if (local === 'default') summary.defaultExport = target;
    const f = summary.functions.get(target);
    if (f && !summary.functions.has(local)) summary.functions.set(local, f);
  }
  return summary;
}

function classOf(summary: ModuleSummary, name: string, bases: string[] | null): ClassSummary {
  let c = summary.classes.get(name);
  if (!c) summary.classes.set(name, (c = { name, bases: [], methods: new Map() }));
  if (bases) c.bases = bases;
  return c;
}

/** Every function of the tree an importer can name (top-level functions and class methods). */
function namedFunctions(tree: Tree, fe: FrontEnd): NamedFunction[] {
  const out: NamedFunction[] = [];
  for (const n of tree.rootNode.descendantsOfType([...fe.syntax.functions])) {
    const f = n ? fe.namedFunction(n) : null;
    if (f && topLevelOrMethod(f.node, fe)) out.push(f);
  }
  return out;
}

/** Importers reach module-level functions and methods of module-level classes, not inner helpers. */
function topLevelOrMethod(fn: Node, fe: FrontEnd): boolean {
  for (let p = fn.parent; p; p = p.parent) if (fe.isFunctionDefinition(p)) return false;
  return true;
}

function classes(tree: Tree, fe: FrontEnd): Node[] {
  return tree.rootNode.descendantsOfType([...fe.syntax.classes]).filter((n): n is Node => !!n);
}

/**
 * What a function returns: the expression of its only return (or an arrow's body), evaluated;
 * of several, the environment read an environment-lookup helper returns (`envLookupReturn`).
 */
function returnOf(fn: Node, fe: FrontEnd, ctx: ReturnType<typeof newContext>): Value | null {
  const returns = fe.returnedExpressions(fn);
  if (returns.length === 1 && returns[0]) return worthKeeping(ctx.evaluate(returns[0], ctx));
  if (returns.length < 2 || returns.length > MAX_LOOKUP_RETURNS || returns.some((r) => !r)) return null;
  const values = returns.map((r) => ctx.evaluate(r!, ctx) ?? unknownValue(r!));
  const lookup = envLookupReturn(values);
  return lookup >= 0 ? values[lookup] : null;
}

/** More returns than this make a dispatcher, not an environment-lookup helper. */
const MAX_LOOKUP_RETURNS = 6;

/** A returned object, or a scalar that is more than one unknown: enough to build a key from. */
function worthKeeping(v: Value | null): Value | null {
  if (!v) return null;
  if (v.kind === 'object' || v.kind === 'condition') return v;
  if (v.kind !== 'scalar') return null;
  const parts = v.template.parts;
  return parts.some((p) => 'literal' in p || p.hole.kind !== 'unknown' || p.hole.param || p.hole.envRead) ? v : null;
}

/**
 * The class a function returns a new instance of, and the construction: its one `return new
 * X(...)` (`new this()`, Python `cls(...)`: its own class).
 */
function madeClass(f: NamedFunction, fe: FrontEnd): { name: string; node: Node } | null {
  const returns = fe.returnedExpressions(f.node);
  if (returns.length !== 1 || !returns[0]) return null;
  const e = returns[0].type === 'await_expression' ? returns[0].namedChild(0) : returns[0];
  const ctor = fe.constructorOf(e);
  if (!e || !ctor) return null;
  if (fe.isOwnClass(ctor)) return f.owner ? { name: f.owner, node: e } : null;
  return ctor.type === 'identifier' && /^[A-Z]/.test(ctor.text) ? { name: ctor.text, node: e } : null;
}

/** What a construction is given, evaluated here with its origins placed in this file; null when it is given nothing. */
function madeWith(call: Node, fe: FrontEnd, file: string, ctx: ReturnType<typeof newContext>): MadeWith | null {
  const out: MadeWith = { span: spanOf(call), positional: [], named: [] };
  for (const a of call.childForFieldName('arguments')?.namedChildren ?? []) {
    if (!a || a.type === 'comment') continue;
    if (/spread|splat/.test(a.type)) break;
    if (a.type === 'keyword_argument') {
      const name = a.childForFieldName('name')?.text;
      const value = a.childForFieldName('value');
      const v = value ? ctx.evaluate(value, ctx) : null;
      if (name && v) out.named.push([name, placeOrigins(v, file)]);
      continue;
    }
    const v = ctx.evaluate(a, ctx);
    out.positional.push(placeOrigins(v ?? unknownValue(a), file));
  }
  return out.positional.length || out.named.length ? out : null;
}

/**
 * A parameter's default as a caller leaving it out gets it: a key value (a scalar), its
 * parts reached through the parameter. Evaluated in this module, as Python does once
 * when the `def` runs.
 */
function defaultOf(
  d: { name: string; node: Node; path?: string[] },
  file: string,
  ctx: ReturnType<typeof newContext>,
): NonNullable<FunctionSummary['defaults']> {
  const v = ctx.evaluate(d.node, ctx);
  if (v?.kind !== 'scalar') return [];
  const param = d.node.parent ?? d.node;
  const name = d.path ? d.path[d.path.length - 1] : d.name;
  const declaration: Declaration = { name, file, span: spanOf(param), valueSpan: spanOf(d.node) };
  const placed = placeOrigins(v, file) as Extract<Value, { kind: 'scalar' }>;
  const parts = placed.template.parts.map((p) => ({
    ...p,
    origin: p.origin
      ? { ...p.origin, via: [declaration, ...p.origin.via] }
      : { file, span: declaration.valueSpan, via: [declaration] },
  }));
  const value = { ...placed, template: { ...placed.template, parts } };
  return [{ name: d.name, value, declaration, ...(d.path ? { path: d.path } : {}) }];
}

/** `class DatabaseClient implements IDatabaseClient, Disposable`: the interface names. */
function implementedNames(cls: Node): string[] {
  const heritage = cls.namedChildren.find((c) => c?.type === 'class_heritage');
  const clause = heritage?.namedChildren.find((c) => c?.type === 'implements_clause');
  return (clause?.namedChildren ?? []).flatMap((t) =>
    t && /^(type_identifier|identifier)$/.test(t.type) ? [t.text] : [],
  );
}
