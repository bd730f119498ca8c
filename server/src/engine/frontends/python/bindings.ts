/**
 * What each Python scope binds, collected once per scope and cached per tree:
 * assignments, loop and `with` targets, imports, and nested definitions.
 */
import type { Node, Tree } from 'web-tree-sitter';

/** What a Python identifier refers to, as far as one file shows. */
export type Binding =
  /** `x = expr`, `x: int = expr`, `a, b = 1, 2` (the matching element), `(x := expr)`. */
  | { kind: 'value'; node: Node }
  /** `x += expr`: the value before it, combined with `expr`. */
  | { kind: 'augmented'; node: Node }
  | { kind: 'param'; fn: Node; param: Param }
  /** `for x in it`, `[... for x in it]`; `path` picks the name out of a tuple target. */
  | { kind: 'loop'; iter: Node; path: number[] }
  /** `with expr as x`. */
  | { kind: 'with'; node: Node }
  | { kind: 'function'; node: Node }
  | { kind: 'class'; node: Node }
  | { kind: 'import'; module: string; name: string }
  /** Bound to something the analyzer does not follow (`except E as e`, `x: int`). */
  | { kind: 'opaque' };

export interface Param {
  name: string;
  /** Position among the positional parameters, or -1 for keyword-only and `*args`. */
  index: number;
  default: Node | null;
}

export interface Entry {
  /** Where the binding takes effect: an assignment after its right side, a loop at its start. */
  pos: number;
  /** The assignment itself: a use inside it (`x = x + 1`) reads an earlier binding. */
  within: Node | null;
  binding: Binding;
}

/** Per-tree caches, so resolving many names costs one pass per scope, not one per name. */
interface TreeIndex {
  scopes: Map<number, Map<string, Entry[]>>;
  classes: Map<number, Map<string, Node[]>>;
  calls: Map<string, Node[]> | null;
  text?: string;
}

const indexes = new WeakMap<Tree, TreeIndex>();

export function indexOf(tree: Tree): TreeIndex {
  let ix = indexes.get(tree);
  if (!ix) {
    ix = { scopes: new Map(), classes: new Map(), calls: null };
    indexes.set(tree, ix);
  }
  return ix;
}

/** Drops what was learned about a tree (it may have been edited since). */
export function forgetTree(tree: Tree): void {
  indexes.delete(tree);
}

export const COMPREHENSIONS = new Set([
  'list_comprehension',
  'set_comprehension',
  'dictionary_comprehension',
  'generator_expression',
]);
/** Nodes whose names do not leak into the enclosing block. */
const OWN_SCOPE = new Set(['function_definition', 'class_definition', 'lambda', ...COMPREHENSIONS]);
const PATTERNS = new Set(['pattern_list', 'tuple_pattern', 'list_pattern', 'tuple', 'list', 'expression_list']);

/** Where `name` sits in a target (`s`, `i, s`, `(i, (a, b))`), as child positions; a few levels deep at most. */
export function pathTo(target: Node, name: string, depth = 0): number[] | null {
  if (target.type === 'identifier') return target.text === name ? [] : null;
  if (!PATTERNS.has(target.type) || depth > 4) return null;
  const items = target.namedChildren;
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (!item) continue;
    if (item.type === 'identifier' && item.text === name) return [i];
    if (PATTERNS.has(item.type) && item.descendantsOfType('identifier').some((d) => d?.text === name)) {
      const inner = pathTo(item, name, depth + 1);
      return inner ? [i, ...inner] : null;
    }
  }
  return null;
}

function add(table: Map<string, Entry[]>, name: string, entry: Entry): void {
  const list = table.get(name);
  if (list) list.push(entry);
  else table.set(name, [entry]);
}

/** Names an assignment target binds: `x`, or each name of `a, b = 1, 2`. */
function addAssignment(table: Map<string, Entry[]>, a: Node, left: Node, right: Node | null): void {
  const at = { pos: a.endIndex, within: a };
  if (left.type === 'identifier') {
    add(table, left.text, {
      ...at,
      binding: right
        ? a.type === 'augmented_assignment'
          ? { kind: 'augmented', node: a }
          : { kind: 'value', node: right }
        : { kind: 'opaque' },
    });
    return;
  }
  if (!PATTERNS.has(left.type)) return;
  const targets = left.namedChildren;
  const values = right && PATTERNS.has(right.type) ? right.namedChildren : null;
  targets.forEach((t, i) => {
    if (t?.type !== 'identifier') return;
    const v = values && values.length === targets.length ? values[i] : null;
    add(table, t.text, { ...at, binding: v ? { kind: 'value', node: v } : { kind: 'opaque' } });
  });
}

function addTarget(table: Map<string, Entry[]>, target: Node, pos: number, binding: (path: number[]) => Binding): void {
  // A loop unpacks a handful of names; a cap keeps a pathological target from costing n².
  const ids = target.type === 'identifier' ? [target] : target.descendantsOfType('identifier').slice(0, 32);
  for (const id of ids) {
    const path = id ? pathTo(target, id.text) : null;
    if (id && path) add(table, id.text, { pos, within: null, binding: binding(path) });
  }
}

function addImport(table: Map<string, Entry[]>, n: Node): void {
  const module = n.childForFieldName('module_name')?.text ?? '';
  for (const item of n.childrenForFieldName('name')) {
    if (!item) continue;
    const original = item.type === 'aliased_import' ? (item.childForFieldName('name')?.text ?? '') : item.text;
    const local =
      item.type === 'aliased_import' ? (item.childForFieldName('alias')?.text ?? '') : item.text.split('.')[0];
    const imported = n.type === 'import_from_statement' ? { module, name: original } : { module: original, name: '' };
    add(table, local, { pos: n.startIndex, within: null, binding: { kind: 'import', ...imported } });
  }
}

/** Registers what one node binds in its block; returns whether to look inside it. */
function collect(table: Map<string, Entry[]>, n: Node): boolean {
  switch (n.type) {
    case 'assignment':
    case 'augmented_assignment': {
      const left = n.childForFieldName('left');
      if (left) addAssignment(table, n, left, n.childForFieldName('right'));
      return true;
    }
    case 'named_expression': {
      const name = n.childForFieldName('name');
      const value = n.childForFieldName('value');
      if (name && value) add(table, name.text, { pos: n.endIndex, within: n, binding: { kind: 'value', node: value } });
      return true;
    }
    case 'for_statement': {
      const left = n.childForFieldName('left');
      const iter = n.childForFieldName('right');
      if (left && iter) addTarget(table, left, n.startIndex, (path) => ({ kind: 'loop', iter, path }));
      return true;
    }
    case 'as_pattern': {
      const alias = n.childForFieldName('alias')?.namedChild(0);
      const value = n.namedChild(0);
      if (alias && value)
        addTarget(table, alias, n.startIndex, () =>
          n.parent?.type === 'with_item' ? { kind: 'with', node: value } : { kind: 'opaque' },
        );
      return true;
    }
    case 'import_statement':
    case 'import_from_statement':
      addImport(table, n);
      return false;
    case 'function_definition':
    case 'class_definition': {
      const name = n.childForFieldName('name');
      const kind = n.type === 'function_definition' ? 'function' : 'class';
      if (name) add(table, name.text, { pos: n.startIndex, within: null, binding: { kind, node: n } });
      return false;
    }
    default:
      return !OWN_SCOPE.has(n.type);
  }
}

/** Every binding made directly in a module, function or class body, by name. */
export function bindingsOf(scope: Node): Map<string, Entry[]> {
  const ix = indexOf(scope.tree);
  const cached = ix.scopes.get(scope.id);
  if (cached) return cached;
  const table = new Map<string, Entry[]>();
  const body = scope.type === 'module' ? scope : scope.childForFieldName('body');
  // An explicit stack: blocks may nest arbitrarily deep.
  const stack: Node[] = body ? [...body.namedChildren].filter((c): c is Node => c !== null).reverse() : [];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (!collect(table, n)) continue;
    for (let i = n.namedChildCount - 1; i >= 0; i--) {
      const c = n.namedChild(i);
      if (c) stack.push(c);
    }
  }
  for (const list of table.values()) list.sort((a, b) => a.pos - b.pos);
  ix.scopes.set(scope.id, table);
  return table;
}
