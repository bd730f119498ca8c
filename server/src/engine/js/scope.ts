import type { Node, Tree } from 'web-tree-sitter';

/** What an identifier refers to, as far as one file shows. */
export type Binding =
  | { kind: 'value'; node: Node }
  | { kind: 'param'; fn: Node; index: number; name: string }
  | { kind: 'loop'; loop: Node }
  | { kind: 'function'; node: Node }
  /** `import { name as local } from 'source'`. */
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
        return name?.type === 'identifier' && value ? [[name.text, { kind: 'value', node: value }]] : [];
      });
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
      return stmt.descendantsOfType(['import_specifier']).flatMap((spec): Array<[string, Binding]> => {
        const name = spec?.childForFieldName('name')?.text;
        const local = spec?.childForFieldName('alias')?.text ?? name;
        return name && local ? [[local, { kind: 'import', source, name }]] : [];
      });
    }
    default:
      return [];
  }
}

type Declarations = Map<string, Array<{ at: number; binding: Binding }>>;

/** Per tree: each block's declarations by name, built the first time the block is searched. */
const blockCache = new WeakMap<Tree, Map<number, Declarations>>();

function declarationsIn(block: Node): Declarations {
  let perTree = blockCache.get(block.tree);
  if (!perTree) blockCache.set(block.tree, (perTree = new Map()));
  let decls = perTree.get(block.id);
  if (!decls) {
    decls = new Map();
    for (const stmt of block.namedChildren) {
      if (!stmt) continue;
      for (const [name, binding] of declarationsOf(stmt)) {
        const list = decls.get(name) ?? [];
        list.push({ at: stmt.startIndex, binding });
        decls.set(name, list);
      }
    }
    perTree.set(block.id, decls);
  }
  return decls;
}

/**
 * Finds the binding of `id` by walking out through the enclosing scopes: parameters
 * of enclosing functions, loop variables, then declarations among each block's
 * statements (the last one before the use wins, else the first after it).
 */
export function resolve(id: Node): Binding | null {
  const name = id.text;
  let child: Node = id;
  for (let scope = id.parent; scope; child = scope, scope = scope.parent) {
    if (isFunction(scope)) {
      const params = parametersOf(scope);
      const index = params.findIndex((p) => paramName(p) === name);
      if (index >= 0) return { kind: 'param', fn: scope, index, name };
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
      const found = declarationsIn(scope).get(name);
      if (found) {
        const before = found.filter((d) => d.at <= child.startIndex).pop();
        return (before ?? found[0]).binding;
      }
    }
  }
  return null;
}

/** Per tree: calls by the name they call (`f(...)`) or pass first (`xs.map(f)`). */
const callCache = new WeakMap<Tree, Map<string, Node[]>>();

export function callsNaming(tree: Tree, name: string): Node[] {
  let calls = callCache.get(tree);
  if (!calls) {
    calls = new Map();
    for (const c of tree.rootNode.descendantsOfType('call_expression')) {
      if (!c) continue;
      const fn = c.childForFieldName('function');
      const first = c.childForFieldName('arguments')?.namedChild(0);
      for (const key of [
        fn?.type === 'identifier' ? fn.text : null,
        first?.type === 'identifier' ? first.text : null,
      ]) {
        if (!key) continue;
        const list = calls.get(key) ?? [];
        if (list[list.length - 1] !== c) list.push(c);
        calls.set(key, list);
      }
    }
    callCache.set(tree, calls);
  }
  return calls.get(name) ?? [];
}
