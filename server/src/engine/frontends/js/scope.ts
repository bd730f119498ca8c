import type { Node, Tree } from 'web-tree-sitter';
import { recordResolution } from '../evaluation';
import { type EvalContext } from '../../model/eval-context';
import { wordOccurrences } from '../../syntax/word-search';

/** A name itself, not a property (`x.name`) or part of a longer name. */
const JS_WORDS = { dollar: true, notAfterDot: true };

/** What an identifier refers to, as far as one file shows. */
export type Binding =
  | { kind: 'value'; node: Node }
  /**
   * `path`: a name destructured out of the parameter (`{ id }` is parameter `#0`, path `["id"]`);
   * `fallback`: its default (`{ board = "global" }`), taken where the argument leaves it out.
   */
  | { kind: 'param'; fn: Node; index: number; name: string; path?: string[]; fallback?: Node }
  | { kind: 'loop'; loop: Node }
  | { kind: 'function'; node: Node }
  /** `const { name, client: c = x } = getTable("tickets")`: a property of the value, and its default. */
  | { kind: 'field'; node: Node; key: string; fallback?: Node }
  /** A class or an enum: its static members are read like an object's (`Keys.pk`). */
  | { kind: 'class'; node: Node }
  /**
   * `import { name as local } from 'source'`, `const { name: local } = require('source')`;
   * `name` is `'*'` for the whole module (`import * as db`, `const db = require(...)`)
   * and `'default'` for a default import.
   */
  | { kind: 'import'; source: string; name: string };

const FUNCTIONS = new Set([
  'arrow_function',
  'function_declaration',
  'function_expression',
  'function',
  'generator_function',
  'generator_function_declaration',
  'method_definition',
]);

const BLOCKS = new Set(['statement_block', 'program', 'switch_case']);

export function isFunction(n: Node): boolean {
  return FUNCTIONS.has(n.type);
}

/** The identifier a parameter declares: `x`, `x: T`, `x = 1`, `x?: T`. */
function paramName(p: Node): string | null {
  if (p.type === 'identifier') return p.text;
  const inner = p.childForFieldName('pattern') ?? p.childForFieldName('left');
  if (inner) return paramName(inner);
  return null;
}

export function parametersOf(fn: Node): Node[] {
  const single = fn.childForFieldName('parameter');
  if (single) return [single];
  const params = fn.childForFieldName('parameters');
  return params ? params.namedChildren.filter((c): c is Node => c !== null && c.type !== 'comment') : [];
}

/**
 * `pk = "GLOBAL"`, `pk: string = "GLOBAL"`: a named parameter's default. A destructured
 * one (`{ id } = {}`) and `undefined`/`null` say the argument is optional, not a key.
 */
export function parameterDefaults(fn: Node): Array<{ name: string; node: Node }> {
  return parametersOf(fn).flatMap((x) => {
    const value = x.type === 'assignment_pattern' ? x.childForFieldName('right') : x.childForFieldName('value');
    const name = x.type === 'assignment_pattern' ? x.childForFieldName('left') : x.childForFieldName('pattern');
    if (!value || name?.type !== 'identifier' || value.type === 'undefined' || value.type === 'null') return [];
    return [{ name: name.text, node: value }];
  });
}

/** Per tree: each function's parameter names, read once. */
const paramCache = new WeakMap<Tree, Map<number, Array<string | null>>>();

function paramNames(fn: Node): Array<string | null> {
  let perTree = paramCache.get(fn.tree);
  if (!perTree) paramCache.set(fn.tree, (perTree = new Map()));
  let names = perTree.get(fn.id);
  if (!names) perTree.set(fn.id, (names = parametersOf(fn).map(paramName)));
  return names;
}

/** The source text of a tree, read once: `rootNode.text` copies it out of the parser each time. */
const textCache = new WeakMap<Tree, string>();

export function treeText(tree: Tree): string {
  let text = textCache.get(tree);
  if (text === undefined) textCache.set(tree, (text = tree.rootNode.text));
  return text;
}

/** Every name one statement declares, with what it binds the name to. */
function declarationsOf(stmt: Node): Array<[string, Binding]> {
  switch (stmt.type) {
    case 'export_statement': {
      const d = stmt.childForFieldName('declaration');
      return d ? declarationsOf(d) : [];
    }
    case 'lexical_declaration':
    case 'variable_declaration':
      return stmt.namedChildren.flatMap((d): Array<[string, Binding]> => {
        const name = d?.type === 'variable_declarator' ? d.childForFieldName('name') : null;
        const value = d?.childForFieldName('value');
        if (!name || !value) return [];
        const source = requiredModule(value);
        if (source !== null) return requireBindings(name, source);
        if (name.type === 'object_pattern') return fieldBindings(name, value);
        return name.type === 'identifier' ? [[name.text, { kind: 'value', node: value }]] : [];
      });
    case 'class_declaration':
    case 'abstract_class_declaration':
    case 'enum_declaration': {
      const name = stmt.childForFieldName('name')?.text;
      return name ? [[name, { kind: 'class', node: stmt }]] : [];
    }
    case 'function_declaration':
    case 'generator_function_declaration': {
      const name = stmt.childForFieldName('name')?.text;
      return name ? [[name, { kind: 'function', node: stmt }]] : [];
    }
    case 'expression_statement': {
      const e = stmt.namedChild(0);
      const left = e?.type === 'assignment_expression' ? e.childForFieldName('left') : null;
      const right = e?.childForFieldName('right');
      return left?.type === 'identifier' && right ? [[left.text, { kind: 'value', node: right }]] : [];
    }
    case 'import_statement': {
      const source = stmt.childForFieldName('source')?.text.slice(1, -1) ?? '';
      const clause = stmt.namedChildren.find((c) => c?.type === 'import_clause');
      return (clause?.namedChildren ?? []).flatMap((c): Array<[string, Binding]> => {
        if (c?.type === 'identifier') return [[c.text, { kind: 'import', source, name: 'default' }]];
        const all = c?.type === 'namespace_import' ? c.namedChild(0) : null;
        if (all) return [[all.text, { kind: 'import', source, name: '*' }]];
        return (c?.type === 'named_imports' ? c.namedChildren : []).flatMap((spec): Array<[string, Binding]> => {
          const name = spec?.type === 'import_specifier' ? spec.childForFieldName('name')?.text : undefined;
          const local = spec?.childForFieldName('alias')?.text ?? name;
          return name && local ? [[local, { kind: 'import', source, name }]] : [];
        });
      });
    }
    default:
      return [];
  }
}

/** `const { name, client: c, board = "global" } = value`: each local name, the property it takes, its default. */
function fieldBindings(pattern: Node, value: Node): Array<[string, Binding]> {
  return pattern.namedChildren.flatMap((p): Array<[string, Binding]> => {
    const f = p ? patternField(p) : null;
    if (!f) return [];
    return [[f.local, { kind: 'field', node: value, key: f.key, ...(f.fallback ? { fallback: f.fallback } : {}) }]];
  });
}

/**
 * One property of an object pattern: `id`, `id = "x"`, `id: local`, `id: local = "x"`,
 * `"id": local` — the property, the local name it binds, and its default.
 */
function patternField(p: Node): { key: string; local: string; fallback: Node | null } | null {
  if (p.type === 'shorthand_property_identifier_pattern') return { key: p.text, local: p.text, fallback: null };
  if (p.type === 'object_assignment_pattern') {
    const left = p.childForFieldName('left');
    const right = p.childForFieldName('right');
    return left?.type === 'shorthand_property_identifier_pattern'
      ? { key: left.text, local: left.text, fallback: right }
      : null;
  }
  if (p.type !== 'pair_pattern') return null;
  const key = p.childForFieldName('key')?.text.replace(/^['"]|['"]$/g, '');
  let local = p.childForFieldName('value');
  let fallback: Node | null = null;
  if (local?.type === 'assignment_pattern') {
    fallback = local.childForFieldName('right');
    local = local.childForFieldName('left');
  }
  return key && local?.type === 'identifier' ? { key, local: local.text, fallback } : null;
}

/** `require("./db")` (also behind `await`): the module it loads. */
function requiredModule(value: Node): string | null {
  const call = value.type === 'await_expression' ? value.namedChild(0) : value;
  if (call?.type !== 'call_expression' || call.childForFieldName('function')?.text !== 'require') return null;
  const arg = call.childForFieldName('arguments')?.namedChild(0);
  return arg?.type === 'string' ? arg.text.slice(1, -1) : null;
}

/** `const db = require(m)` binds the module; `const { save, load: loadIt } = require(m)` its members. */
function requireBindings(target: Node, source: string): Array<[string, Binding]> {
  if (target.type === 'identifier') return [[target.text, { kind: 'import', source, name: '*' }]];
  if (target.type !== 'object_pattern') return [];
  return target.namedChildren.flatMap((p): Array<[string, Binding]> => {
    if (p?.type === 'shorthand_property_identifier_pattern')
      return [[p.text, { kind: 'import', source, name: p.text }]];
    // `{ load: loadIt }`, and `{ load: loadIt = fallback }` whose local is the pattern's left side.
    const key = p?.type === 'pair_pattern' ? p.childForFieldName('key') : null;
    let local = p?.childForFieldName('value') ?? null;
    if (local?.type === 'assignment_pattern') local = local.childForFieldName('left');
    return key && local?.type === 'identifier' ? [[local.text, { kind: 'import', source, name: key.text }]] : [];
  });
}

type Declaration = { at: number; binding: Binding };

/** Per tree: each block's declarations by name, found the first time they are asked for. */
const blockCache = new WeakMap<Tree, Map<number, Map<string, Declaration[]>>>();

/** Blocks this large (a module's top level) are searched by name rather than read whole. */
const LARGE_BLOCK = 64;
/** Marks a block whose declarations were all read, so an absent name has none. */
const COMPLETE = '\u0000complete';

function declarationsIn(block: Node, name: string): Declaration[] {
  let perTree = blockCache.get(block.tree);
  if (!perTree) blockCache.set(block.tree, (perTree = new Map()));
  let byName = perTree.get(block.id);
  if (!byName) {
    perTree.set(block.id, (byName = new Map()));
    // A small block (a function body) is read whole, once: most of its names get asked for.
    if (block.namedChildCount < LARGE_BLOCK) {
      for (const stmt of block.namedChildren) {
        if (!stmt) continue;
        for (const [n, binding] of declarationsOf(stmt)) {
          byName.set(n, [...(byName.get(n) ?? []), { at: stmt.startIndex, binding }]);
        }
      }
      byName.set(COMPLETE, []);
    }
  }
  const cached = byName.get(name);
  if (cached) return cached;
  if (byName.has(COMPLETE)) return [];
  // A large block (a module's top level): only statements that declare or assign the
  // name can bind it, so find those from the text.
  const found: Declaration[] = [];
  const text = block.parent ? block.text : treeText(block.tree);
  const seen = new Set<number>();
  // Each place the name is written, kept when its surroundings declare or assign it: a plain
  // search (a regular expression of alternatives scanned the whole module for every name).
  for (let at = text.indexOf(name); at >= 0; at = text.indexOf(name, at + name.length)) {
    if (!bindsAt(text, at, name)) continue;
    let stmt: Node | null = block.tree.rootNode.descendantForIndex(block.startIndex + at);
    while (stmt && stmt.parent && !stmt.parent.equals(block)) stmt = stmt.parent;
    if (!stmt?.parent || seen.has(stmt.id)) continue;
    seen.add(stmt.id);
    for (const [d, binding] of declarationsOf(stmt)) if (d === name) found.push({ at: stmt.startIndex, binding });
  }
  byName.set(name, found);
  return found;
}

const DECLARED_BEFORE = /(?:\b(?:const|let|var|class|enum)|\bfunction\*?)\s+$/;
const ASSIGNED_AFTER = /^\s*=(?![=>])/;
const DESTRUCTURED_BEFORE = /\b(?:const|let|var)\s*\{(?:[^}]*?[,:\s])?$/;

/**
 * Whether the name written at `at` may be bound there: `const NAME`, `function NAME`,
 * `NAME = ...`, `import { NAME }`, `const { NAME } = ...` (what `declarationsOf` then reads).
 */
function bindsAt(text: string, at: number, name: string): boolean {
  const before = text[at - 1] ?? '';
  const after = text[at + name.length] ?? '';
  if (/[\w$]/.test(before) || /[\w$]/.test(after)) return false;
  if (before !== '.' && ASSIGNED_AFTER.test(text.slice(at + name.length, at + name.length + 8))) return true;
  // An import statement before it with no `;` in between (a long import list spans lines).
  const imp = text.lastIndexOf('import', at);
  const word = imp >= 0 && !/[\w$]/.test(text[imp - 1] ?? '') && !/[\w$]/.test(text[imp + 6] ?? '');
  if (word && at - imp < 2000 && /[{,\s]/.test(before) && !text.slice(imp, at).includes(';')) return true;
  const back = text.slice(Math.max(0, at - 400), at);
  return DECLARED_BEFORE.test(back) || DESTRUCTURED_BEFORE.test(back);
}

/**
 * Finds the binding of `id` by walking out through the enclosing scopes: parameters
 * of enclosing functions, loop variables, then declarations among each block's
 * statements (the last one before the use wins, else the first after it).
 */
/** The binding `id` refers to, noted in `ctx` as a dependency of the evaluation. */
export function resolve(id: Node, ctx: EvalContext): Binding | null {
  const b = findBinding(id);
  recordResolution(
    ctx,
    id,
    b && 'node' in b ? b.node : b?.kind === 'param' ? b.fn : b?.kind === 'loop' ? b.loop : null,
  );
  return b;
}

/** Each property destructured from a parameter (`{ customerId, id: orderId = "x" }`), with the parameter's place. */
export function destructuredParameters(
  fn: Node,
): Array<{ index: number; key: string; local: string; fallback: Node | null }> {
  return parametersOf(fn).flatMap((param, index) => {
    let p: Node | null = param.childForFieldName('pattern') ?? param;
    if (p.type === 'assignment_pattern') p = p.childForFieldName('left');
    if (p?.type !== 'object_pattern') return [];
    return p.namedChildren.flatMap((c) => {
      const f = c ? patternField(c) : null;
      return f ? [{ index, ...f }] : [];
    });
  });
}

/** `name` destructured from a parameter: which one, the property, and its default. */
function destructured(fn: Node, name: string): { index: number; key: string; fallback: Node | null } | null {
  return destructuredParameters(fn).find((d) => d.local === name) ?? null;
}

/** The binding of `id`, without noting it anywhere (see `resolve`). */
export function findBinding(id: Node): Binding | null {
  const name = id.text;
  let child: Node = id;
  for (let scope = id.parent; scope; child = scope, scope = scope.parent) {
    if (isFunction(scope)) {
      const index = paramNames(scope).indexOf(name);
      if (index >= 0) return { kind: 'param', fn: scope, index, name };
      const d = destructured(scope, name);
      if (d)
        return {
          kind: 'param',
          fn: scope,
          index: d.index,
          name: `#${d.index}`,
          path: [d.key],
          ...(d.fallback ? { fallback: d.fallback } : {}),
        };
    }
    if (scope.type === 'for_in_statement' && scope.childForFieldName('left')?.text === name) {
      return { kind: 'loop', loop: scope };
    }
    if (scope.type === 'for_statement') {
      const init = scope.childForFieldName('initializer');
      if (init?.descendantsOfType('variable_declarator').some((d) => d?.childForFieldName('name')?.text === name)) {
        return { kind: 'loop', loop: scope };
      }
    }
    if (BLOCKS.has(scope.type)) {
      const found = declarationsIn(scope, name);
      if (found.length > 0) {
        const before = found.filter((d) => d.at <= child.startIndex).pop();
        return (before ?? found[0]).binding;
      }
    }
  }
  return null;
}

/** Per tree: calls by the name they call (`f(...)`) or pass first (`xs.map(f)`), found on demand. */
const callCache = new WeakMap<Tree, Map<string, Node[]>>();

export function callsNaming(tree: Tree, name: string): Node[] {
  let calls = callCache.get(tree);
  if (!calls) callCache.set(tree, (calls = new Map()));
  let found = calls.get(name);
  if (!found) {
    found = [];
    // Look only where the name is written, rather than at every call of the file.
    const text = treeText(tree);
    // The root's text starts at its first token: offsets into it are relative to that.
    const base = tree.rootNode.startIndex;
    for (const at of wordOccurrences(text, name, JS_WORDS)) {
      const id = tree.rootNode.descendantForIndex(base + at);
      if (id?.type !== 'identifier') continue;
      const parent = id.parent;
      const call =
        parent?.type === 'call_expression' && parent.childForFieldName('function')?.equals(id)
          ? parent
          : parent?.type === 'arguments' &&
              parent.namedChild(0)?.equals(id) &&
              parent.parent?.type === 'call_expression'
            ? parent.parent
            : null;
      if (call) found.push(call);
    }
    calls.set(name, found);
  }
  return found;
}
