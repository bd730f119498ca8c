/**
 * The classes JavaScript and TypeScript code declares its variables with, for the
 * reachability pass: a method called on a variable or a field of a known class runs that
 * class's method (or an override), not every method of its name in the modules imported.
 */
import type { Node } from 'web-tree-sitter';
import type { SeenBinding } from '../../model/entry-point';
import type { Span } from '../../model/range';
import { spanOf } from '../../syntax/span';
import { parametersOf } from './scope';

/**
 * The declared types of a class's fields: typed properties (`private repo: Repo`), the
 * constructor's parameter properties (`constructor(private readonly orders: OrdersService)`,
 * NestJS's injection) and fields it sets from a typed parameter (`this.store = store`).
 */
export function fieldTypes(body: Node | null): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const m of body?.namedChildren ?? []) {
    if (m.type === 'public_field_definition') {
      const name = m.childForFieldName('name')?.text;
      const type = typeName(m.childForFieldName('type'));
      if (name && type) fields[name] = type;
    }
    if (m.type !== 'method_definition' || m.childForFieldName('name')?.text !== 'constructor') continue;
    const params = new Map<string, string>();
    for (const p of m.childForFieldName('parameters')?.namedChildren ?? []) {
      const name = p.childForFieldName('pattern');
      const type = typeName(p.childForFieldName('type'));
      if (name?.type !== 'identifier' || !type) continue;
      params.set(name.text, type);
      if (p.children.some((c) => c.type === 'accessibility_modifier' || c.type === 'readonly'))
        fields[name.text] = type;
    }
    for (const a of m.childForFieldName('body')?.descendantsOfType('assignment_expression') ?? []) {
      const left = a?.childForFieldName('left');
      const right = a?.childForFieldName('right');
      if (left?.type !== 'member_expression' || left.childForFieldName('object')?.type !== 'this') continue;
      const type = right?.type === 'identifier' ? params.get(right.text) : undefined;
      const field = left.childForFieldName('property')?.text;
      if (field && type) fields[field] = type;
    }
  }
  return fields;
}

/** `Repo`, `Repo<T>`, `ns.Repo` → `Repo`, from a type annotation; null for any other type. */
function typeName(annotation: Node | null): string | null {
  const t = annotation?.type === 'type_annotation' ? annotation.namedChild(0) : annotation;
  const named = t?.type === 'generic_type' ? t.childForFieldName('name') : t;
  if (named?.type === 'type_identifier') return named.text;
  if (named?.type === 'nested_type_identifier') return named.childForFieldName('name')?.text ?? null;
  return null;
}

/** The class a value is made from: `new Repo(db)`, `new repos.Repo()` → `Repo`. */
function madeClass(value: Node | null): string | null {
  const v = value?.type === 'await_expression' ? value.namedChild(0) : value;
  if (v?.type !== 'new_expression') return null;
  const c = v.childForFieldName('constructor');
  if (c?.type === 'identifier') return c.text;
  return c?.type === 'member_expression' ? (c.childForFieldName('property')?.text ?? null) : null;
}

/**
 * What a function's parameters are declared with: the class a type names
 * (`repo: OrdersRepository`) or a default makes (`repo = new OrdersRepository()`); any other
 * named parameter is bound too, to nothing known (it hides a variable of its name around it).
 */
export function parameterBindings(fn: Node): SeenBinding[] {
  const out: SeenBinding[] = [];
  // One span for all: it places the names in the function, and each span read costs a node's marshalling.
  let span: Span | undefined;
  for (const p of parametersOf(fn)) {
    const name = p.type === 'identifier' ? p : p.childForFieldName('pattern');
    if (name?.type !== 'identifier') continue;
    const type =
      p.type === 'identifier'
        ? null
        : (typeName(p.childForFieldName('type')) ?? madeClass(p.childForFieldName('value')));
    out.push({ name: name.text, span: (span ??= spanOf(p)), ...(type ? { type } : {}) });
  }
  return out;
}

/** What a declaration gives its name: a class by its type (`let s: Cache = make()`) or made (`const repo = new Repo()`); else nothing known. */
export function declaratorBinding(d: Node): SeenBinding | null {
  const name = d.childForFieldName('name');
  if (name?.type !== 'identifier') return null;
  const type = typeName(d.childForFieldName('type')) ?? madeClass(d.childForFieldName('value'));
  return { name: name.text, span: spanOf(d), ...(type ? { type } : {}) };
}
