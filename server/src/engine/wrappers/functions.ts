/**
 * Naming the functions of a module the way its importers call them: a top-level
 * function (`save`), a function stored in a constant or an export (`const save = () =>`,
 * `exports.save = ...`, `module.exports = { save: ... }`), or a class's method
 * (`BaseRepo.write`, a Python `Repo.list_partition`). A call site inside a callback
 * belongs to the named function around it.
 */
import type { Node } from 'web-tree-sitter';
import type { SourceLanguage } from '../model';
import { isFunction as isJsFunction, parameterDefaults, parametersOf as jsParameters } from '../js/scope';
import { parametersOf as pythonParameters } from '../python/scope';

export interface NamedFunction {
  node: Node;
  name: string;
  /** The class the function is a method of, or null. */
  owner: string | null;
  /** Parameter names in call order; a Python method's `self`/`cls` left out. */
  params: string[];
  /**
   * Parameters with a default: the default expression of each (Python: other than `None`;
   * JavaScript/TypeScript: other than `undefined`/`null`, and not a destructured one).
   */
  defaults?: Array<{ name: string; node: Node }>;
}

/** The nearest function around `n` that importers can call by name, or null. */
export function enclosingNamedFunction(n: Node, language: SourceLanguage): NamedFunction | null {
  for (let p = n.parent; p; p = p.parent) {
    const named = language === 'python' ? pythonFunction(p) : jsFunction(p);
    if (named) return named;
  }
  return null;
}

/** `p` as a named JavaScript/TypeScript function, or null when it is anonymous or not a function. */
export function jsFunction(p: Node): NamedFunction | null {
  if (!isJsFunction(p)) return null;
  const named = jsNamed(p);
  if (!named) return null;
  const defaults = parameterDefaults(p);
  return defaults.length ? { ...named, defaults } : named;
}

function jsNamed(p: Node): NamedFunction | null {
  const params = jsParameters(p).map((x, i) => jsParamName(x, i));
  if (p.type === 'method_definition') {
    const cls = p.parent?.type === 'class_body' ? p.parent.parent : null;
    const name = p.childForFieldName('name')?.text;
    return name ? { node: p, name, owner: cls?.childForFieldName('name')?.text ?? null, params } : null;
  }
  const own = p.childForFieldName('name')?.text;
  if (own) return { node: p, name: own, owner: null, params };
  const holder = p.parent;
  // `const save = async () => ...`, `{ save: () => ... }`, `exports.save = function () {...}`.
  if (holder?.type === 'variable_declarator' && holder.childForFieldName('name')?.type === 'identifier')
    return { node: p, name: holder.childForFieldName('name')!.text, owner: null, params };
  if (holder?.type === 'pair') {
    const key = holder.childForFieldName('key')?.text.replace(/^['"]|['"]$/g, '');
    return key ? { node: p, name: key, owner: null, params } : null;
  }
  if (holder?.type === 'assignment_expression') {
    const left = holder.childForFieldName('left');
    const name = left?.type === 'member_expression' ? left.childForFieldName('property')?.text : left?.text;
    return name && /^\w+$/.test(name) ? { node: p, name, owner: null, params } : null;
  }
  return null;
}

/** A parameter's name; a destructured one (`{ id }`) is `#i`, as its marked holes name it. */
function jsParamName(p: Node, i: number): string {
  if (p.type === 'identifier') return p.text;
  const inner = p.childForFieldName('pattern') ?? p.childForFieldName('left');
  return inner ? jsParamName(inner, i) : `#${i}`;
}

/** `p` as a Python `def` (a method when it sits in a class body), or null. */
export function pythonFunction(p: Node): NamedFunction | null {
  if (p.type !== 'function_definition') return null;
  const name = p.childForFieldName('name')?.text;
  if (!name) return null;
  const holder = p.parent?.type === 'decorated_definition' ? p.parent.parent : p.parent;
  const cls = holder?.type === 'block' && holder.parent?.type === 'class_definition' ? holder.parent : null;
  const all = pythonParameters(p);
  const isStatic = p.parent?.type === 'decorated_definition' && /@staticmethod\b/.test(p.parent.text.slice(0, 200));
  const own = cls && !isStatic ? all.slice(1) : all;
  const params = own.map((x) => x.name);
  const defaults = own.flatMap((x) =>
    x.default && x.default.type !== 'none' ? [{ name: x.name, node: x.default }] : [],
  );
  return {
    node: p,
    name,
    owner: cls?.childForFieldName('name')?.text ?? null,
    params,
    ...(defaults.length ? { defaults } : {}),
  };
}

/** The class `n` sits in (the nearest), or null. */
export function enclosingClass(n: Node, language: SourceLanguage): Node | null {
  const types =
    language === 'python' ? ['class_definition'] : ['class_declaration', 'class', 'abstract_class_declaration'];
  for (let p = n.parent; p; p = p.parent) if (types.includes(p.type)) return p;
  return null;
}

/** The names a class extends: `extends BaseRepo`, `class Invoices(Base)`. */
export function baseNames(cls: Node, language: SourceLanguage): string[] {
  if (language === 'python') {
    const list = cls.childForFieldName('superclasses');
    return (list?.namedChildren ?? []).flatMap((c) =>
      c && (c.type === 'identifier' || c.type === 'attribute') ? [c.text] : [],
    );
  }
  const heritage = cls.namedChildren.find((c) => c?.type === 'class_heritage');
  const clause = heritage?.namedChildren.find((c) => c?.type === 'extends_clause') ?? heritage;
  const value = clause?.childForFieldName('value') ?? clause?.namedChild(0);
  return value && (value.type === 'identifier' || value.type === 'member_expression') ? [value.text] : [];
}

/**
 * What a function hands back: the expressions of its own `return` statements (null for
 * a bare `return`; those of nested functions left out), or an arrow function's
 * expression body. Empty when it has no body.
 */
export function returnedExpressions(fn: Node, language: SourceLanguage): Array<Node | null> {
  const body = fn.childForFieldName('body');
  if (!body) return [];
  if (language !== 'python' && body.type !== 'statement_block') return [body];
  return body
    .descendantsOfType('return_statement')
    .filter((r): r is Node => !!r && ownFunction(r, language)?.equals(fn) === true)
    .map((r) => r.namedChild(0));
}

/** The function whose code `n` runs in (a nested one, an arrow, a lambda count too). */
function ownFunction(n: Node, language: SourceLanguage): Node | null {
  for (let p = n.parent; p; p = p.parent) {
    if (language === 'python' ? p.type === 'function_definition' || p.type === 'lambda' : isJsFunction(p)) return p;
  }
  return null;
}
