import type { Node } from 'web-tree-sitter';
import { declarationOf, onceUnless, reachedThrough, unknownValue } from '../evaluation';
import { type EvalContext } from '../../model/eval-context';
import { spanOf } from '../../syntax/span';
import { literal } from '../../model/template';
import type { Entry, Value } from '../../model/value';
import { returnedExpressions } from './functions';
import { argumentValues, decoratedClass } from './constructions';

/** A class or enum declaration, whose static members a name reads like an object's. */
export const CLASS_LIKE = new Set(['class_declaration', 'abstract_class_declaration', 'class', 'enum_declaration']);
/** Class declarations, for the class a node sits in and a module's classes. */
export const CLASS_TYPES: readonly string[] = ['class_declaration', 'class', 'abstract_class_declaration'];

/**
 * What `Keys.pk` reads off a class or an enum: the static fields and static getters of
 * a class (`static readonly PK = "pk"`, `static get TODAY_ISO() { return ... }`) and the
 * members of an enum (`enum Keys { pk = "pk" }`, numbered from 0 when not given), as an
 * object. Instance members are left out: they are not read off the class.
 */
export function classValue(n: Node, ctx: EvalContext): Value {
  const v = membersOf(n, ctx, true);
  // `@Entity({ ... }) class User` of a DynamoDB library: the class carries its schema.
  if (v.kind !== 'object' || n.type === 'enum_declaration') return v;
  const made = decoratedClass(n, ctx);
  return made ? { ...v, made } : v;
}

/**
 * What `new X()` reads like (`DT.TODAY_ISO` on `export const DT = new DateHelper()`):
 * the class's instance fields and getters. What its constructor sets is not read, so
 * the object says it may hold more (`hidden`): a key is never guessed from it.
 */
export function instanceValue(cls: Node, at: Node, ctx: EvalContext): Value {
  if (cls.type === 'enum_declaration') return unknownValue(at);
  const v = membersOf(cls, ctx, false);
  if (v.kind !== 'object') return v;
  // `new User()` of a library's decorated model: the schema, with the construction as its call.
  const made = decoratedClass(cls, ctx);
  const calls = made ? { made: { ...made, calls: [{ name: 'new', args: argumentValues(at, ctx) }] } } : {};
  return { ...v, span: spanOf(at), hidden: unknownValue(at), ...calls };
}

function membersOf(n: Node, ctx: EvalContext, statics: boolean): Value {
  const body = n.childForFieldName('body');
  const entries: Entry[] = [];
  if (n.type === 'enum_declaration') {
    // Each member is reached through its declaration, named `Status.Active`: a key written
    // with it says which enum it is one of (SL022 reads a status enum's member as few-valued).
    const owner = n.childForFieldName('name')?.text ?? '';
    let next = 0;
    for (const m of body?.namedChildren ?? []) {
      if (m?.type === 'property_identifier') {
        const v: Value = { kind: 'scalar', template: literal(String(next++)), span: spanOf(m) };
        const d = { name: `${owner}.${m.text}`, file: '', span: spanOf(m), valueSpan: spanOf(m) };
        entries.push([m.text, reachedThrough(v, m, d), spanOf(m)]);
      }
      if (m?.type !== 'enum_assignment') continue;
      const name = m.childForFieldName('name');
      const value = m.childForFieldName('value');
      if (!name || !value) continue;
      const v = ctx.evaluate(value, ctx) ?? unknownValue(value);
      entries.push([
        memberName(name),
        reachedThrough(v, name, declarationOf(`${owner}.${memberName(name)}`, value)),
        spanOf(m),
      ]);
      if (value.type === 'number') next = Number(value.text) + 1;
    }
  } else {
    for (const m of body?.namedChildren ?? []) {
      if (!m || isStatic(m) !== statics) continue;
      const name = m.childForFieldName('name') ?? m.childForFieldName('property');
      if (!name) continue;
      if (m.type === 'public_field_definition' || m.type === 'field_definition') {
        const value = m.childForFieldName('value');
        // A static field is evaluated once, when the class is defined.
        if (value)
          entries.push([
            memberName(name),
            onceUnless(!statics, ctx.evaluate(value, ctx) ?? unknownValue(value)),
            spanOf(m),
          ]);
      } else if (m.type === 'method_definition' && m.children.some((c) => c?.type === 'get')) {
        const returns = returnedExpressions(m);
        const only = returns.length === 1 ? returns[0] : null;
        if (only) entries.push([memberName(name), ctx.evaluate(only, ctx) ?? unknownValue(only), spanOf(m)]);
      }
    }
  }
  return { kind: 'object', entries, span: spanOf(n) };
}

function isStatic(m: Node): boolean {
  return m.children.some((c) => c?.type === 'static');
}

function memberName(name: Node): string {
  return name.type === 'string' ? name.text.slice(1, -1) : name.text;
}
