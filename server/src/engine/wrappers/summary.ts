/**
 * A module's functions summarised once, so a call in another file can be judged
 * without reading the module again: which DynamoDB requests a function makes from
 * its parameters (a wrapper: `save(pk, sk)`, `BaseRepo.write(item)`), and what it
 * returns (`cartKey(owner)` returns `{ pk: owner, sk: "CART" }`). Parameters stay
 * marked holes (`Hole.param`); each caller puts in its own arguments.
 */
import type { ClassSummary, FunctionSummary, ModuleSummary } from '../model/summary';
import type { Node, Tree } from 'web-tree-sitter';
import { findJsCallSites } from '../js/calls';
import { findPythonCallSites } from '../python/calls';
import { newContext, placeOrigins } from '../evaluation';
import type { Lookups } from '../model/eval-context';
import { evaluate as evaluateJs } from '../js/evaluate';
import type { Declaration, SourceLanguage } from '../model';
import { spanOf } from '../span';
import { evaluate as evaluatePython } from '../python/evaluate';
import type { Value } from '../model/value';
import { wrapperCalls } from './callers';
import { hasParamHole } from './instantiate';
import { moduleInstances } from './instances';
import { followLocalCalls } from './local-calls';
import type { ModulesFrom } from './resolve';
import {
  baseNames,
  enclosingNamedFunction,
  jsFunction,
  pythonFunction,
  returnedExpressions,
  type NamedFunction,
} from './functions';

/** At most this many functions of a module have their returns followed (a generated module has thousands). */
const MAX_RETURNS = 300;

export function summarizeModule(
  tree: Tree,
  text: string,
  file: string,
  language: SourceLanguage,
  lookups: Lookups,
  imports: Map<string, { source: string; name: string }>,
  withSites: boolean,
  /** Other modules' summaries, to follow wrappers this module's functions call (a service calling a repository). */
  modulesFrom?: ModulesFrom,
): ModuleSummary {
  const summary: ModuleSummary = {
    file,
    language,
    functions: new Map(),
    classes: new Map(),
    imports,
    wraps: false,
    reexports: language === 'python' ? [] : reexportsOf(tree),
    instances: moduleInstances(tree, language),
  };
  const evaluate = language === 'python' ? evaluatePython : evaluateJs;
  const ctx = () => newContext(evaluate, { ...lookups, summary: true });
  const summaryOf = (f: NamedFunction): FunctionSummary => {
    const table = f.owner ? classOf(summary, f.owner, null).methods : summary.functions;
    let s = table.get(f.name);
    if (!s) table.set(f.name, (s = { name: f.name, owner: f.owner, params: f.params, sites: [], returns: null }));
    return s;
  };
  let followed = 0;
  for (const f of namedFunctions(tree, language)) {
    const s = summaryOf(f);
    if (followed++ < MAX_RETURNS) s.returns = returnOf(f.node, language, ctx());
    if (s.returns) s.returns = placeOrigins(s.returns, file);
    const made = madeClass(f, language);
    if (made) s.makes = made;
    const defaults = (f.defaults ?? []).flatMap((d) => defaultOf(d, file, ctx()));
    if (defaults.length) s.defaults = defaults;
  }
  for (const cls of classes(tree, language)) {
    const name = cls.childForFieldName('name')?.text;
    if (!name) continue;
    const c = classOf(summary, name, baseNames(cls, language));
    const implemented = implementedNames(cls);
    if (implemented.length) c.implements = implemented;
  }
  if (withSites) {
    const own = { ...lookups, summary: true };
    const sites = [
      ...(language === 'python'
        ? findPythonCallSites(tree, text, file, undefined, own)
        : findJsCallSites(tree, text, file, language, undefined, own)),
      ...(modulesFrom ? wrapperCalls(tree, file, language, own, modulesFrom) : []),
    ];
    for (const site of sites) {
      if (!hasParamHole(site.input)) continue;
      const at = { row: site.span.startLine, column: site.span.startColumn };
      const node = tree.rootNode.descendantForPosition(at);
      const f = node ? enclosingNamedFunction(node, language) : null;
      if (!f) continue;
      summaryOf(f).sites.push(placeOrigins(site, file));
      summary.wraps = true;
    }
    followLocalCalls(tree, file, language, summary, summaryOf, ctx);
  }
  for (const [local, target] of exportAliases(tree, language)) {
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
function namedFunctions(tree: Tree, language: SourceLanguage): NamedFunction[] {
  const types =
    language === 'python'
      ? ['function_definition']
      : ['function_declaration', 'method_definition', 'arrow_function', 'function_expression', 'function'];
  const out: NamedFunction[] = [];
  for (const n of tree.rootNode.descendantsOfType(types)) {
    const f = n ? (language === 'python' ? pythonFunction(n) : jsFunction(n)) : null;
    if (f && topLevelOrMethod(f.node, language)) out.push(f);
  }
  return out;
}

/** Importers reach module-level functions and methods of module-level classes, not inner helpers. */
function topLevelOrMethod(fn: Node, language: SourceLanguage): boolean {
  for (let p = fn.parent; p; p = p.parent) {
    if (language === 'python' ? p.type === 'function_definition' : jsFunction(p) !== null) return false;
  }
  return true;
}

function classes(tree: Tree, language: SourceLanguage): Node[] {
  const types =
    language === 'python' ? ['class_definition'] : ['class_declaration', 'abstract_class_declaration', 'class'];
  return tree.rootNode.descendantsOfType(types).filter((n): n is Node => !!n);
}

/** What a function returns: the expression of its only return (or an arrow's body), evaluated. */
function returnOf(fn: Node, language: SourceLanguage, ctx: ReturnType<typeof newContext>): Value | null {
  const returns = returnedExpressions(fn, language);
  return returns.length === 1 && returns[0] ? worthKeeping(ctx.evaluate(returns[0], ctx)) : null;
}

/** A returned object, or a scalar that is more than one unknown: enough to build a key from. */
function worthKeeping(v: Value | null): Value | null {
  if (!v) return null;
  if (v.kind === 'object' || v.kind === 'condition') return v;
  if (v.kind !== 'scalar') return null;
  const parts = v.template.parts;
  return parts.some((p) => 'literal' in p || p.hole.kind !== 'unknown' || p.hole.param) ? v : null;
}

/** `module.exports = { save: saveItem }`, `exports.save = saveItem`, `export { saveItem as save }`. */
function exportAliases(tree: Tree, language: SourceLanguage): Array<[string, string]> {
  if (language === 'python') return [];
  const out: Array<[string, string]> = [];
  for (const stmt of tree.rootNode.namedChildren) {
    const e = stmt?.type === 'expression_statement' ? stmt.namedChild(0) : null;
    if (e?.type === 'assignment_expression') {
      const left = e.childForFieldName('left')?.text ?? '';
      const right = e.childForFieldName('right');
      if (left === 'module.exports' && right?.type === 'object') {
        for (const c of right.namedChildren) {
          const key = c?.type === 'pair' ? c.childForFieldName('key')?.text : null;
          const value = c?.type === 'pair' ? c.childForFieldName('value') : null;
          if (key && value?.type === 'identifier') out.push([key, value.text]);
        }
      }
      const m = left.match(/^(?:module\.)?exports\.(\w+)$/);
      if (m && right?.type === 'identifier') out.push([m[1], right.text]);
      if (left === 'module.exports' && right?.type === 'identifier') out.push(['default', right.text]);
    }
    // `export default class Post {}`, `export default Post`.
    if (stmt?.type === 'export_statement' && /^export\s+default\b/.test(stmt.text)) {
      const d = stmt.childForFieldName('declaration') ?? stmt.childForFieldName('value');
      const name = d?.type === 'identifier' ? d.text : d?.childForFieldName('name')?.text;
      if (name) out.push(['default', name]);
    }
    if (stmt?.type === 'export_statement' && !stmt.childForFieldName('source')) {
      for (const spec of stmt.descendantsOfType('export_specifier')) {
        const name = spec?.childForFieldName('name')?.text;
        const alias = spec?.childForFieldName('alias')?.text;
        if (name && alias) out.push([alias, name]);
      }
    }
  }
  return out;
}

/** `export * from "./impl"` and `export { save, load as fetch } from "./impl"` (a barrel `index.ts`). */
function reexportsOf(tree: Tree): ModuleSummary['reexports'] {
  const out: ModuleSummary['reexports'] = [];
  for (const stmt of tree.rootNode.namedChildren) {
    const from = stmt?.type === 'export_statement' ? stmt.childForFieldName('source') : null;
    if (!stmt || !from) continue;
    const source = from.text.slice(1, -1);
    const specifiers = stmt.descendantsOfType('export_specifier');
    if (specifiers.length === 0) {
      out.push({ source, names: '*' });
      continue;
    }
    const names = new Map<string, string>();
    for (const spec of specifiers) {
      const name = spec?.childForFieldName('name')?.text;
      if (name) names.set(spec!.childForFieldName('alias')?.text ?? name, name);
    }
    out.push({ source, names });
  }
  return out;
}

/** The class a function returns a new instance of: its one `return new X(...)` (`new this()`, Python `cls(...)`: its own class). */
function madeClass(f: NamedFunction, language: SourceLanguage): string | null {
  const returns = returnedExpressions(f.node, language);
  if (returns.length !== 1 || !returns[0]) return null;
  const e = returns[0].type === 'await_expression' ? returns[0].namedChild(0) : returns[0];
  const ctor =
    language === 'python'
      ? e?.type === 'call'
        ? e.childForFieldName('function')
        : null
      : e?.type === 'new_expression'
        ? e.childForFieldName('constructor')
        : null;
  if (ctor?.type === 'this' || (language === 'python' && ctor?.text === 'cls')) return f.owner;
  return ctor?.type === 'identifier' && /^[A-Z]/.test(ctor.text) ? ctor.text : null;
}

/**
 * A parameter's default as a caller leaving it out gets it: a key value (a scalar), its
 * parts reached through the parameter. Evaluated in this module, as Python does once
 * when the `def` runs.
 */
function defaultOf(
  d: { name: string; node: Node },
  file: string,
  ctx: ReturnType<typeof newContext>,
): NonNullable<FunctionSummary['defaults']> {
  const v = ctx.evaluate(d.node, ctx);
  if (v?.kind !== 'scalar') return [];
  const param = d.node.parent ?? d.node;
  const declaration: Declaration = { name: d.name, file, span: spanOf(param), valueSpan: spanOf(d.node) };
  const placed = placeOrigins(v, file) as Extract<Value, { kind: 'scalar' }>;
  const parts = placed.template.parts.map((p) => ({
    ...p,
    origin: p.origin
      ? { ...p.origin, via: [declaration, ...p.origin.via] }
      : { file, span: declaration.valueSpan, via: [declaration] },
  }));
  return [{ name: d.name, value: { ...placed, template: { ...placed.template, parts } }, declaration }];
}

/** `class DatabaseClient implements IDatabaseClient, Disposable`: the interface names. */
function implementedNames(cls: Node): string[] {
  const heritage = cls.namedChildren.find((c) => c?.type === 'class_heritage');
  const clause = heritage?.namedChildren.find((c) => c?.type === 'implements_clause');
  return (clause?.namedChildren ?? []).flatMap((t) =>
    t && /^(type_identifier|identifier)$/.test(t.type) ? [t.text] : [],
  );
}
