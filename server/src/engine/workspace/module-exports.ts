/**
 * What a module's importers see of it, read from its tree: each top-level name's value as the
 * module is loaded (`export const SHARDS = 10`, `const { orders } = createTables()`), the names
 * a barrel passes on, and what `module.exports = User` or `export default` make of the whole.
 * ModuleConstants (modules.ts) keeps one per module and answers imports from it.
 */
import type { Node, Tree } from 'web-tree-sitter';
import { exportedValue, newContext, onceUnless } from '../frontends/evaluation';
import type { ImportLookup } from '../model/eval-context';
import type { FrontEnd } from '../model/frontend';
import { callsModelFactory } from '../model/libraries';
import type { FunctionSummary } from '../model/summary';
import { destructuredPart, type Value } from '../model/value';
import { requiredNames } from '../syntax/barrels';

/** `export * as Dynamo from "./dynamo"`: the namespace's name and the module it names. */
const NAMESPACE_EXPORT = /^\s*export\s+\*\s+as\s+([A-Za-z_$][\w$]*)\s+from\s+["']([^"']+)["']/gm;

export interface ModuleReading {
  module: string;
  text: string;
  tree: Tree;
  fe: FrontEnd;
  /** A name as the module imports it. */
  imports: ImportLookup;
  /** A function the module imports (what it returns), for a value made by an imported factory. */
  functions: (source: string, name: string) => FunctionSummary | null;
  /** Told as soon as read (a barrel importing itself back sees them): a namespace the module exports, a module it passes on whole. */
  namespace(name: string, source: string): void;
  star(source: string): void;
}

/**
 * Fills `result` with the module's names and values. `result` is the map importers already
 * hold (set before reading: an import cycle sees the names read so far).
 */
export function readModuleExports(m: ModuleReading, result: Map<string, Value | null>): void {
  const { module, text, tree, fe, imports, functions } = m;
  const evaluate = fe.evaluate;
  // Nothing is recorded: another file's ranges mean nothing to the caller's call site.
  for (const [name, node] of fe.topLevelDeclarations(tree)) {
    // A module's constants are evaluated once, when it is loaded.
    const lookups = callsModelFactory(node.text) ? { imports, functions } : { imports };
    const value = evaluate(node, newContext(evaluate, lookups));
    result.set(name, exportedValue(value && onceUnless(false, value), name, node, module));
  }
  // `const { orders, users } = createTables()`: each name the part of the value it takes.
  const whole = new Map<Node, Value | null>();
  for (const { name, value: node, key } of fe.destructuredDeclarations(tree)) {
    if (result.has(name)) continue;
    if (!whole.has(node)) {
      const lookups = callsModelFactory(node.text) ? { imports, functions } : { imports };
      const v = evaluate(node, newContext(evaluate, lookups));
      whole.set(node, v && onceUnless(false, v));
    }
    const part = destructuredPart(whole.get(node) ?? undefined, key);
    if (part) result.set(name, exportedValue(part, name, node, module));
  }
  // A barrel (`export { User } from "./user"`, or `const { User } = require("./user")` passed on by
  // `module.exports = { User }`): the value the module it names holds, as its importers see it.
  for (const n of text.matchAll(NAMESPACE_EXPORT)) m.namespace(n[1], n[2]);
  for (const r of fe.reexports(tree)) {
    if (r.names === '*') m.star(r.source);
    else for (const [alias, name] of r.names) if (!result.has(alias)) result.set(alias, imports(r.source, name));
  }
  for (const [local, source, name] of requiredNames(tree))
    if (!result.has(local)) result.set(local, imports(source, name));
  // A Python package's `__init__.py` passes on the classes it imports (`from .person import
  // PersonModel`): `from app.models import PersonModel` gets the class the package imports.
  if (module.endsWith('__init__.py'))
    for (const [local, { source, name }] of fe.importedNames(tree))
      if (/^[A-Z]/.test(name) && !result.has(local)) result.set(local, imports(source, name));
  // `module.exports = User`: what `const User = require("./user")` (the whole module) holds.
  for (const [alias, local] of fe.exportAliases(tree)) {
    if (alias !== 'default' || !result.get(local)) continue;
    if (!result.has('*') && wholeModuleExport(text, local)) result.set('*', result.get(local)!);
    // `export default class User`: what `import User from "./user"` holds.
    if (!result.has('default')) result.set('default', result.get(local)!);
  }
}

/** Whether a CommonJS module's whole export is the one name (`module.exports = User`). */
function wholeModuleExport(text: string, local: string): boolean {
  return new RegExp(`\\bmodule\\.exports\\s*=\\s*${local.replace(/\$/g, '\\$')}\\s*;?\\s*$`, 'm').test(text);
}
