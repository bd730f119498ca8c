import type { Node } from 'web-tree-sitter';

/** What an identifier refers to, as far as one file shows. */
export type Binding =
  | { kind: 'value'; node: Node }
  | { kind: 'param'; fn: Node; index: number; name: string }
  | { kind: 'loop'; loop: Node }
  | { kind: 'function'; node: Node }
  | { kind: 'import'; source: string };

const FUNCTIONS = new Set([
  'arrow_function',
  'function_declaration',
  'function_expression',
  'function',
  'generator_function',
  'generator_function_declaration',
  'method_definition',
]);

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

function declaredIn(stmt: Node, name: string): Binding | null {
  switch (stmt.type) {
    case 'export_statement': {
      const d = stmt.childForFieldName('declaration');
      return d ? declaredIn(d, name) : null;
    }
    case 'lexical_declaration':
    case 'variable_declaration':
      for (const d of stmt.namedChildren) {
        if (d?.type === 'variable_declarator' && d.childForFieldName('name')?.text === name) {
          const value = d.childForFieldName('value');
          return value ? { kind: 'value', node: value } : null;
        }
      }
      return null;
    case 'function_declaration':
    case 'generator_function_declaration':
      return stmt.childForFieldName('name')?.text === name ? { kind: 'function', node: stmt } : null;
    case 'expression_statement': {
      const e = stmt.namedChild(0);
      if (e?.type === 'assignment_expression' && e.childForFieldName('left')?.text === name) {
        const right = e.childForFieldName('right');
        return right ? { kind: 'value', node: right } : null;
      }
      return null;
    }
    case 'import_statement': {
      const source = stmt.childForFieldName('source')?.text.slice(1, -1) ?? '';
      for (const spec of stmt.descendantsOfType(['import_specifier', 'namespace_import', 'identifier'])) {
        if (!spec) continue;
        const local =
          spec.type === 'import_specifier' ? (spec.childForFieldName('alias') ?? spec.childForFieldName('name')) : spec;
        if (local?.text === name) return { kind: 'import', source };
      }
      return null;
    }
    default:
      return null;
  }
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
      if (
        init &&
        init.descendantsOfType('variable_declarator').some((d) => d?.childForFieldName('name')?.text === name)
      ) {
        return { kind: 'loop', loop: scope };
      }
    }
    if (scope.type === 'statement_block' || scope.type === 'program' || scope.type === 'switch_case') {
      let before: Binding | null = null;
      let after: Binding | null = null;
      for (const stmt of scope.namedChildren) {
        if (!stmt) continue;
        const b = declaredIn(stmt, name);
        if (!b) continue;
        if (stmt.startIndex <= child.startIndex) before = b;
        else after ??= b;
      }
      if (before ?? after) return before ?? after;
    }
  }
  return null;
}
