/**
 * What a JavaScript/TypeScript module offers its importers: module-level constants,
 * classes and enums, re-exports, export aliases and module-level instances, and the
 * file an import names.
 */
import * as path from 'node:path';
import type { Node, Tree } from 'web-tree-sitter';
import type { DestructuredName, ModuleFinder } from '../../model/frontend';
import type { ModuleSummary } from '../../model/summary';
import { callsModelFactory } from '../../model/libraries';
import { languageForFile } from '../../syntax/parser';
import { CLASS_LIKE } from './classes';
import { importedNames } from './imports';

/** Module-level constant declarations (`export const X = ...`), classes and enums (their static members are constants too). */
export function topLevelDeclarations(tree: Tree): Map<string, Node> {
  const out = new Map<string, Node>();
  for (let stmt of tree.rootNode.namedChildren) {
    if (!stmt) continue;
    if (stmt.type === 'export_statement') {
      // `export default { indexes, models } as const`: an object the module exports whole (a
      // library's schema, a config), what `import schema from "./schema"` holds.
      const value = stmt.childForFieldName('value');
      if (value && defaultObject(value)) out.set('default', value);
      // `export default new Table({...})`, `export default createTable()`: the model the module
      // exports whole, what `import table from "../index"` holds.
      if (
        value &&
        (value.type === 'new_expression' || (value.type === 'call_expression' && callsModelFactory(value.text)))
      )
        out.set('default', value);
      stmt = stmt.childForFieldName('declaration') ?? stmt;
    }
    // `exports.TABLES = { ... }`: CommonJS's exports one by one, as written by hand and by tsc.
    const exported = exportedValue(stmt);
    if (exported) out.set(exported.name, exported.value);
    // A class or an enum: its static members are constants too (`Keys.pk`).
    const className = CLASS_LIKE.has(stmt.type) ? stmt.childForFieldName('name') : null;
    if (className) out.set(className.text, stmt);
    if (stmt.type !== 'lexical_declaration' && stmt.type !== 'variable_declaration') continue;
    for (const d of stmt.namedChildren) {
      const name = d?.type === 'variable_declarator' ? d.childForFieldName('name') : null;
      const value = d?.childForFieldName('value');
      if (name?.type === 'identifier' && value) out.set(name.text, value);
    }
  }
  return out;
}

/**
 * `exports.TABLES = { ... }` or `module.exports.TABLE_NAME = process.env.TABLE_NAME` at the
 * top level: the name and the value. Not an alias of a declaration (`exports.save = save`,
 * `exportAliases`) and not tsc's `exports.TABLES = void 0` placeholders, which come first and
 * may be chained (`exports.KEYS = exports.TABLES = void 0`).
 */
function exportedValue(stmt: Node): { name: string; value: Node } | null {
  const e = stmt.type === 'expression_statement' ? stmt.namedChild(0) : null;
  if (e?.type !== 'assignment_expression') return null;
  const name = /^(?:module\.)?exports\.([A-Za-z_$][\w$]*)$/.exec(e.childForFieldName('left')?.text ?? '')?.[1];
  const value = e.childForFieldName('right');
  if (!name || !value || value.type === 'identifier' || value.type === 'assignment_expression') return null;
  if (value.type === 'unary_expression' && value.text.startsWith('void')) return null;
  return { name, value };
}

/**
 * `const { orders, users: people } = createTables()`, `export const [main, audit] = makeTables()`
 * at the module's top level (a `require` is an import, read as one: `requiredNames`).
 */
export function destructuredDeclarations(tree: Tree): DestructuredName[] {
  const out: DestructuredName[] = [];
  for (let stmt of tree.rootNode.namedChildren) {
    if (stmt?.type === 'export_statement') stmt = stmt.childForFieldName('declaration') ?? stmt;
    if (stmt?.type !== 'lexical_declaration' && stmt?.type !== 'variable_declaration') continue;
    for (const d of stmt.namedChildren) {
      const pattern = d?.type === 'variable_declarator' ? d.childForFieldName('name') : null;
      const value = d?.childForFieldName('value');
      if (!pattern || !value || /^require\s*\(/.test(value.text)) continue;
      if (pattern.type === 'object_pattern')
        for (const p of pattern.namedChildren) {
          if (p?.type === 'shorthand_property_identifier_pattern') out.push({ name: p.text, value, key: p.text });
          const key = p?.type === 'pair_pattern' ? p.childForFieldName('key') : null;
          const local = p?.type === 'pair_pattern' ? p.childForFieldName('value') : null;
          if (key?.type === 'property_identifier' && local?.type === 'identifier')
            out.push({ name: local.text, value, key: key.text });
        }
      if (pattern.type === 'array_pattern') {
        // Positions count the commas: `[, audit]` skips one.
        let position = 0;
        for (const c of pattern.children) {
          if (c?.type === ',') position++;
          else if (c?.type === 'identifier') out.push({ name: c.text, value, key: position });
        }
      }
    }
  }
  return out;
}

/** An object literal, also typed (`{ ... } as const`, `{ ... } satisfies Schema`). */
function defaultObject(n: Node): boolean {
  if (n.type === 'as_expression' || n.type === 'satisfies_expression')
    return !!n.namedChild(0) && defaultObject(n.namedChild(0)!);
  return n.type === 'object';
}

/** `module.exports = { save: saveItem }`, `exports.save = saveItem`, `export { saveItem as save }`. */
export function exportAliases(tree: Tree): Array<[string, string]> {
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
    // `export default class Post {}`, `export default Post`; also after a decorator (`@Entity({...}) export default class`).
    if (stmt?.type === 'export_statement' && stmt.children.some((c) => c?.type === 'default')) {
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
export function reexports(tree: Tree): ModuleSummary['reexports'] {
  const out: ModuleSummary['reexports'] = [];
  for (const stmt of tree.rootNode.namedChildren) {
    const from = stmt?.type === 'export_statement' ? stmt.childForFieldName('source') : null;
    if (!stmt || !from) continue;
    const source = from.text.slice(1, -1);
    // `export * as Pipe from "."` exports one name, the module's namespace, which no value
    // here stands for; it passes on none of the module's names (and often names the module itself).
    if (stmt.namedChildren.some((c) => c?.type === 'namespace_export')) continue;
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
  return [...out, ...importsPassedOn(tree)];
}

/**
 * Imports a module exports again by a statement of its own (`import Job from "./job";
 * export { Job }`, `export { Job as Task }`, `export default Job`): the same as `export {
 * default as Job } from "./job"` to its importers. A namespace (`import * as db`) is left out,
 * as `export * as db from` is.
 */
function importsPassedOn(tree: Tree): ModuleSummary['reexports'] {
  const imported = new Map([...importedNames(tree)].filter(([, i]) => i.name !== '*'));
  const bySource = new Map<string, Map<string, string>>();
  const pass = (exported: string, local: string | undefined) => {
    const i = local ? imported.get(local) : undefined;
    if (!i) return;
    const names = bySource.get(i.source) ?? new Map<string, string>();
    if (!names.has(exported)) names.set(exported, i.name);
    bySource.set(i.source, names);
  };
  for (const stmt of tree.rootNode.namedChildren) {
    if (stmt?.type !== 'export_statement' || stmt.childForFieldName('source')) continue;
    if (stmt.children.some((c) => c?.type === 'default')) {
      const value = stmt.childForFieldName('value');
      if (value?.type === 'identifier') pass('default', value.text);
      continue;
    }
    for (const spec of stmt.descendantsOfType('export_specifier')) {
      const name = spec?.childForFieldName('name')?.text;
      pass(spec?.childForFieldName('alias')?.text ?? name ?? '', name);
    }
  }
  return [...bySource].map(([source, names]) => ({ source, names }));
}

/**
 * Module-level instances other files import and call methods on: `export const counters
 * = new CounterRepository()`, `module.exports = new PresenceStore()`, `export default new Store()`.
 */
export function moduleInstances(tree: Tree): Map<string, string> {
  const out = new Map<string, string>();
  for (let stmt of tree.rootNode.namedChildren) {
    if (!stmt) continue;
    if (stmt.type === 'export_statement') {
      // `export default new Store()`.
      const value = stmt.childForFieldName('value');
      const cls = constructed(value);
      if (cls) out.set('default', cls);
      stmt = stmt.childForFieldName('declaration') ?? stmt;
    }
    if (stmt.type === 'lexical_declaration' || stmt.type === 'variable_declaration') {
      for (const d of stmt.namedChildren) {
        const name = d?.type === 'variable_declarator' ? d.childForFieldName('name') : null;
        const cls = constructed(d?.childForFieldName('value') ?? null);
        if (name?.type === 'identifier' && cls) out.set(name.text, cls);
      }
    }
    const e = stmt.type === 'expression_statement' ? stmt.namedChild(0) : null;
    if (e?.type === 'assignment_expression') {
      const left = e.childForFieldName('left')?.text ?? '';
      const cls = constructed(e.childForFieldName('right'));
      const m = /^(?:module\.)?exports(?:\.(\w+))?$/.exec(left);
      if (m && cls) out.set(m[1] ?? 'default', cls);
    }
  }
  return out;
}

/** `new Store(...)`: the class name. */
export function constructed(n: Node | null): string | null {
  const ctor = n?.type === 'new_expression' ? n.childForFieldName('constructor') : null;
  return ctor?.type === 'identifier' ? ctor.text : null;
}

const JS_SUFFIXES = ['', '.ts', '.tsx', '.mts', '.js', '.mjs', '.cjs', '/index.ts', '/index.js'];

/**
 * The file a JS/TS import names: a relative path, or a path alias of the nearest
 * tsconfig (`@adapters/db`); null for packages and missing files.
 */
export function resolveModule(fromFile: string, source: string, finder: ModuleFinder): string | null {
  const bases = source.startsWith('.')
    ? [path.resolve(path.dirname(fromFile), source)]
    : finder.aliasCandidates(fromFile, source);
  const found = (b: string) => {
    const base = b.replace(/\.js$/, '');
    return JS_SUFFIXES.map((s) => base + s).find((f) => finder.exists(f) && languageForFile(f)) ?? null;
  };
  for (const b of bases) {
    const file = found(b);
    if (file) return file;
  }
  // `../dist/entities` of a compiled project: its source, where the tsconfig says the output comes from.
  for (const b of bases) {
    const source = finder.builtSource?.(b);
    const file = source ? found(source) : null;
    if (file) return file;
  }
  return null;
}
