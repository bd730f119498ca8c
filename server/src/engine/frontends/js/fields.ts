/**
 * The class of an object a class keeps in a field: `this.repo` declared as a
 * constructor parameter property (`constructor(private readonly repo: UserRepo)`, the
 * shape of injected services), a typed or initialised field (`repo = new UserRepo()`),
 * or assigned in a method (`this.repo = new UserRepo()`).
 * The name is the class as this file writes it, to be looked up in its imports.
 */
import type { Node } from 'web-tree-sitter';
import { CLASS_TYPES } from './classes';
import { constructed } from './module-shape';
import { parameterDefaults, parametersOf } from './scope';

export function fieldClassName(member: Node): string | null {
  const cls = enclosingClass(member);
  const field = member.childForFieldName('property')?.text;
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

/**
 * The expression a class gives its field `this.<field>`: the field's initialiser
 * (`private readonly shifts = ShiftEntity`), else the one assignment `this.<field> = ...`
 * the constructor makes (`this.tickets = table.getModel("Ticket")`). Null when the class
 * assigns it elsewhere too, where which value a method sees depends on the order of calls.
 */
export function fieldInitializer(member: Node): Node | null {
  const field = member.childForFieldName('property')?.text;
  return field ? fieldInitializerNamed(member, field) : null;
}

/** `fieldInitializer` of the field `field` of the class `within` sits in. */
export function fieldInitializerNamed(within: Node, field: string): Node | null {
  const cls = enclosingClass(within);
  if (!cls) return null;
  let found: Node | null = null;
  let assignments = 0;
  for (const m of cls.childForFieldName('body')?.namedChildren ?? []) {
    if (m?.type === 'public_field_definition' || m?.type === 'field_definition') {
      if ((m.childForFieldName('name') ?? m.childForFieldName('property'))?.text === field)
        found = m.childForFieldName('value') ?? found;
      continue;
    }
    if (m?.type !== 'method_definition') continue;
    for (const a of m.descendantsOfType('assignment_expression')) {
      const left = a?.childForFieldName('left');
      if (left?.type !== 'member_expression' || left.childForFieldName('object')?.type !== 'this') continue;
      if (left.childForFieldName('property')?.text !== field) continue;
      assignments++;
      if (m.childForFieldName('name')?.text === 'constructor') found = a!.childForFieldName('right') ?? found;
    }
  }
  return assignments <= 1 ? found : null;
}

/** `: UserRepo` → `UserRepo` (generic and union types are not followed). */
function typeName(annotation: Node | null): string | null {
  const t = annotation?.type === 'type_annotation' ? annotation.namedChild(0) : annotation;
  return t?.type === 'type_identifier' || t?.type === 'identifier' ? t.text : null;
}

/** The class `n` sits in (the nearest), or null. */
function enclosingClass(n: Node): Node | null {
  for (let p = n.parent; p; p = p.parent) if (CLASS_TYPES.includes(p.type)) return p;
  return null;
}

/**
 * What a constructor keeps of its parameters: a parameter property (`private readonly
 * tableName: string`, with or without a default) and `this.table = table`, by field.
 */
export function injectedFields(cls: Node): { init: string; fields: Map<string, string> } | null {
  const ctor = (cls.childForFieldName('body')?.namedChildren ?? []).find(
    (m) => m?.type === 'method_definition' && m.childForFieldName('name')?.text === 'constructor',
  );
  if (!ctor) return null;
  const fields = new Map<string, string>();
  const params = new Set<string>();
  for (const p of parametersOf(ctor)) {
    const name = p.childForFieldName('pattern');
    if (name?.type !== 'identifier') continue;
    params.add(name.text);
    if (p.children.some((c) => c?.type === 'accessibility_modifier' || c?.type === 'readonly'))
      fields.set(name.text, name.text);
  }
  for (const a of ctor.descendantsOfType('assignment_expression')) {
    const left = a?.childForFieldName('left');
    const right = a?.childForFieldName('right');
    if (left?.type !== 'member_expression' || left.childForFieldName('object')?.type !== 'this') continue;
    const field = left.childForFieldName('property')?.text;
    if (field && right?.type === 'identifier' && params.has(right.text)) fields.set(field, right.text);
  }
  return fields.size ? { init: 'constructor', fields } : null;
}

/**
 * What the constructor of the class around `within` gives `this.<field>` when a construction
 * leaves the argument out: the default of the parameter property of that name (`private
 * readonly tableName = process.env.ORDERS_TABLE`) or of the parameter `this.<field> = <param>`
 * keeps. Null when there is none (a required parameter, `= undefined`).
 */
export function constructorDefault(within: Node, field: string): Node | null {
  const cls = enclosingClass(within);
  const param = cls ? injectedFields(cls)?.fields.get(field) : undefined;
  const ctor = (cls?.childForFieldName('body')?.namedChildren ?? []).find(
    (m) => m?.type === 'method_definition' && m.childForFieldName('name')?.text === 'constructor',
  );
  if (!param || !ctor) return null;
  return parameterDefaults(ctor).find((d) => d.name === param)?.node ?? null;
}
