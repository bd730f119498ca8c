/**
 * The class of an object a class keeps in a field: `this.repo` declared as a
 * constructor parameter property (`constructor(private readonly repo: UserRepo)`, the
 * shape of injected services), a typed or initialised field (`repo = new UserRepo()`),
 * or assigned in a method (`this.repo = new UserRepo()`, Python `self.repo = Repo()`).
 * The name is the class as this file writes it, to be looked up in its imports.
 */
import type { Node } from 'web-tree-sitter';
import type { EvalContext } from '../model/eval-context';
import type { SourceLanguage } from '../model';
import { attributeValueNode } from '../python/scope';
import { enclosingClass } from './functions';

export function fieldClassName(member: Node, language: SourceLanguage, ctx: EvalContext): string | null {
  if (language === 'python') {
    const made = attributeValueNode(member, ctx);
    const fn = made?.type === 'call' ? made.childForFieldName('function') : null;
    if (fn?.type === 'identifier') return fn.text;
    // `def __init__(self, repository: JobRepository): self._repository = repository`.
    return made?.type === 'identifier' ? annotatedParameter(made) : null;
  }
  const field = member.childForFieldName('property')?.text;
  const cls = enclosingClass(member, language);
  if (!field || !cls) return null;
  for (const m of cls.childForFieldName('body')?.namedChildren ?? []) {
    if (!m) continue;
    if (m.type === 'public_field_definition' || m.type === 'field_definition') {
      if ((m.childForFieldName('name') ?? m.childForFieldName('property'))?.text !== field) continue;
      return constructed(m.childForFieldName('value')) ?? typeName(m.childForFieldName('type'));
    }
    if (m.type !== 'method_definition') continue;
    const isConstructor = m.childForFieldName('name')?.text === 'constructor';
    const params = isConstructor ? (m.childForFieldName('parameters')?.namedChildren ?? []) : [];
    for (const p of params) {
      if (p?.childForFieldName('pattern')?.text === field) {
        const type = typeName(p.childForFieldName('type'));
        if (type) return type;
      }
    }
    for (const a of m.descendantsOfType('assignment_expression')) {
      const left = a?.childForFieldName('left');
      if (left?.type !== 'member_expression' || left.childForFieldName('object')?.type !== 'this') continue;
      if (left.childForFieldName('property')?.text !== field) continue;
      const made = constructed(a!.childForFieldName('right'));
      if (made) return made;
    }
  }
  return null;
}

/** `new UserRepo(...)` → `UserRepo`. */
function constructed(n: Node | null): string | null {
  const ctor = n?.type === 'new_expression' ? n.childForFieldName('constructor') : null;
  return ctor?.type === 'identifier' ? ctor.text : null;
}

/** `: UserRepo` → `UserRepo` (generic and union types are not followed). */
function typeName(annotation: Node | null): string | null {
  const t = annotation?.type === 'type_annotation' ? annotation.namedChild(0) : annotation;
  return t?.type === 'type_identifier' || t?.type === 'identifier' ? t.text : null;
}

/** The class a Python parameter is annotated with (`repository: JobRepository`), for the name `id` reads. */
function annotatedParameter(id: Node): string | null {
  let fn: Node | null = id.parent;
  while (fn && fn.type !== 'function_definition') fn = fn.parent;
  for (const p of fn?.childForFieldName('parameters')?.namedChildren ?? []) {
    if (p?.type !== 'typed_parameter' && p?.type !== 'typed_default_parameter') continue;
    const name = p.type === 'typed_parameter' ? p.namedChild(0) : p.childForFieldName('name');
    const type = p.childForFieldName('type')?.namedChild(0) ?? p.childForFieldName('type');
    if (name?.text === id.text && type?.type === 'identifier') return type.text;
  }
  return null;
}
