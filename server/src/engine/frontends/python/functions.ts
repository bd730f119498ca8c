/**
 * Python functions and classes the way importers name them: a `def` (a method when it
 * sits in a class body, its `self`/`cls` left out), and the classes a class extends.
 */
import type { Node } from 'web-tree-sitter';
import type { NamedFunction } from '../../model/frontend';
import { returnedExpressions as returnedIn } from '../wrappers/functions';
import { parametersOf } from './scope';

/** `p` as a Python `def` (a method when it sits in a class body), or null. */
export function pythonFunction(p: Node): NamedFunction | null {
  if (p.type !== 'function_definition') return null;
  const name = p.childForFieldName('name')?.text;
  if (!name) return null;
  const holder = p.parent?.type === 'decorated_definition' ? p.parent.parent : p.parent;
  const cls = holder?.type === 'block' && holder.parent?.type === 'class_definition' ? holder.parent : null;
  const all = parametersOf(p);
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

/** A function's own code: a `def` or a `lambda`. */
export function isFunctionScope(p: Node): boolean {
  return p.type === 'function_definition' || p.type === 'lambda';
}

/** What a function hands back: the expressions of its own `return` statements. */
export function returnedExpressions(fn: Node): Array<Node | null> {
  return returnedIn(fn, isFunctionScope, false);
}

/** `class Invoices(Base, mixins.Audited)`: the names it extends. */
export function baseNames(cls: Node): string[] {
  const list = cls.childForFieldName('superclasses');
  return (list?.namedChildren ?? []).flatMap((c) =>
    c && (c.type === 'identifier' || c.type === 'attribute') ? [c.text] : [],
  );
}
