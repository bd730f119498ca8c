/**
 * JavaScript/TypeScript functions and classes the way importers name them: a top-level
 * function (`save`), a function stored in a constant or an export (`const save = () =>`,
 * `exports.save = ...`, `module.exports = { save: ... }`), a class's method
 * (`BaseRepo.write`), and the class a class extends.
 */
import type { Node } from 'web-tree-sitter';
import type { NamedFunction } from '../../model/frontend';
import { returnedExpressions as returnedIn } from '../wrappers/functions';
import { destructuredParameters, isFunction, parameterDefaults, parametersOf } from './scope';

/** `p` as a named JavaScript/TypeScript function, or null when it is anonymous or not a function. */
export function jsFunction(p: Node): NamedFunction | null {
  if (!isFunction(p)) return null;
  const named = jsNamed(p);
  if (!named) return null;
  const defaults = [
    ...parameterDefaults(p),
    ...destructuredParameters(p).flatMap((d) =>
      d.fallback ? [{ name: `#${d.index}`, node: d.fallback, path: [d.key] }] : [],
    ),
  ];
  return defaults.length ? { ...named, defaults } : named;
}

function jsNamed(p: Node): NamedFunction | null {
  const params = parametersOf(p).map((x, i) => jsParamName(x, i));
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
    const object = objectName(holder.parent);
    return key ? { node: p, name: key, owner: null, params, ...(object ? { holder: object } : {}) } : null;
  }
  if (holder?.type === 'assignment_expression') {
    const left = holder.childForFieldName('left');
    const name = left?.type === 'member_expression' ? left.childForFieldName('property')?.text : left?.text;
    return name && /^\w+$/.test(name) ? { node: p, name, owner: null, params } : null;
  }
  return null;
}

/** The name an object literal is declared under (`const Dynamo = { ... }`), or null. */
function objectName(object: Node | null): string | null {
  const decl = object?.type === 'object' ? object.parent : null;
  const name = decl?.type === 'variable_declarator' ? decl.childForFieldName('name') : null;
  return name?.type === 'identifier' ? name.text : null;
}

/** A parameter's name; a destructured one (`{ id }`) is `#i`, as its marked holes name it. */
function jsParamName(p: Node, i: number): string {
  if (p.type === 'identifier') return p.text;
  const inner = p.childForFieldName('pattern') ?? p.childForFieldName('left');
  return inner ? jsParamName(inner, i) : `#${i}`;
}

/** What a function hands back: its own `return` expressions, or an arrow's expression body. */
export function returnedExpressions(fn: Node): Array<Node | null> {
  return returnedIn(fn, isFunction, true);
}

/** The one expression a function hands back (`(_, s) => \`K#\${s}\``), or null when it has several or none. */
export function soleReturned(fn: Node): Node | null {
  const returned = returnedExpressions(fn);
  return returned.length === 1 ? returned[0] : null;
}

/** `class Invoices extends BaseRepo`: the name it extends. */
export function baseNames(cls: Node): string[] {
  const heritage = cls.namedChildren.find((c) => c?.type === 'class_heritage');
  const clause = heritage?.namedChildren.find((c) => c?.type === 'extends_clause') ?? heritage;
  const value = clause?.childForFieldName('value') ?? clause?.namedChild(0);
  return value && (value.type === 'identifier' || value.type === 'member_expression') ? [value.text] : [];
}

/** The function a binding names: a `function` declaration, or a variable bound to an arrow or function expression. */
export function functionNode(n: Node): Node | null {
  if (/^(function_declaration|function_expression|arrow_function|function)$/.test(n.type)) return n;
  const value = n.type === 'variable_declarator' ? n.childForFieldName('value') : null;
  return value && /^(function_expression|arrow_function|function)$/.test(value.type) ? value : null;
}
