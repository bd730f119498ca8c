/**
 * The value TypeDORM stores in a key attribute for a call: the entity's template
 * (`'USER#{{id}}'`) with each `{{name}}` replaced by the attribute's value as
 * `toString()` gives it, with no change of case (`parseKey` in @typedorm/core), so the
 * template is what DynamoDB holds. On a create, an attribute the item leaves out is
 * filled by its `@AutoGenerateAttribute` (a random id or the clock) or its `default`.
 * A key with a hole nothing fills is not written: an index's is left out (a sparse
 * index), a table key's fails in TypeDORM before any request.
 */
import type { Declaration, KeyTemplate, Span } from '../../model';
import { hole } from '../../model/template';
import type { Value } from '../../model/value';
import { given as givenValue, interpolate, type Filled } from '../key-templates';
import { perItem } from '../library-requests';
import type { EntitySchema, KeySchema } from './schema';

/** The values a call gives, by attribute name. */
export type Given = (attribute: string) => Value | undefined;

export interface Stored {
  value: Value;
  /** The schema alone made it (no value the call gives went into it). */
  fromSchema: boolean;
  declaration: Declaration;
}

const HOLE = /\{\{(.+?)\}\}/g;

export function keyDeclaration(e: EntitySchema, key: KeySchema): Declaration {
  const name = `${e.className}.${key.name === 'primary' ? 'primaryKey' : key.name}`;
  return { name, file: e.file, span: key.span, valueSpan: key.span };
}

/**
 * What `template` (a key's partition or sort template) stores for the call, or null
 * when an attribute it names is not given. `put`: a create, where generated values and
 * defaults fill what the item leaves out.
 */
export function storedKey(
  e: EntitySchema,
  key: KeySchema,
  template: string,
  given: Given,
  put: boolean,
  at: Span,
): Stored | null {
  const declaration = keyDeclaration(e, key);
  const origin = { file: e.file, span: key.span, via: [] };
  const filled = interpolate(template, HOLE, origin, (name) => attributeValue(e, name.trim(), given, put));
  if (filled.missing !== undefined) return null;
  const value: Value = {
    kind: 'scalar',
    template: { parts: filled.parts },
    span: filled.span ?? at,
    via: [declaration],
  };
  return { value, fromSchema: !filled.used, declaration };
}

function attributeValue(e: EntitySchema, name: string, given: Given, put: boolean): Filled | null {
  const v = given(name);
  if (v) return givenValue(v);
  if (!put) return null;
  const a = e.attributes.get(name);
  const d = a?.default && perItem(a.default);
  if (d?.kind === 'scalar') return { template: d.template, used: false };
  if (!a?.generated) return null;
  const origin = { file: e.file, span: a.span, via: [] };
  const source = `${e.className}.${name} generated`;
  const template: KeyTemplate =
    a.generated === 'time'
      ? hole({ kind: 'time', time: 'instant', source }, origin)
      : hole({ kind: 'random', source }, origin);
  return { template, used: false };
}

/** Whether the schema alone makes the key's partition one constant (no value the call gives goes into it). */
export function fixedBySchema(e: EntitySchema, key: KeySchema, g: Given): boolean {
  const v = storedKey(e, key, key.partition, g, true, e.nameSpan);
  return !!v?.fromSchema && v.value.kind === 'scalar' && v.value.template.parts.every((p) => 'literal' in p);
}
