/**
 * The value a OneTable model stores in one attribute for a call: the field's value
 * given by the call, else its value template (`'user#${id}'`) with each `${name}` (also
 * `${name:8:0}`, padded) filled from the call's properties, the model's name for its
 * type field, and on a create the field's `default` or generated id. The template is
 * what DynamoDB holds, so Contributor Insights' keys match it. As OneTable does, a
 * find whose sort-key template is left partly unfilled reads `begins_with` its prefix.
 */
import type { Declaration, KeyTemplate, Span, TemplatePart } from '../../model';
import { hole, literal } from '../../model/template';
import type { Value } from '../../model/value';
import type { FieldSchema, ModelSchema } from './schema';

/** The values a call gives, by model field name. */
export type Given = (field: string) => Value | undefined;

/** `put`: a create (defaults and generated ids fill what it leaves out); `find`: a query. */
export type Op = 'put' | 'key' | 'find';

export interface Stored {
  value: Value;
  /** The schema alone made it (no property the call gives went into it). */
  fromSchema: boolean;
  /** A find's sort key left partly unfilled: the value is the prefix it begins with. */
  begins?: true;
  declaration: Declaration;
}

export function fieldDeclaration(m: ModelSchema, f: FieldSchema): Declaration {
  return { name: `${m.name}.${f.name}`, file: m.schemaFile, span: f.span, valueSpan: f.span };
}

const TEMPLATE_HOLE = /\$\{(.*?)\}/g;

/** What the attribute `attribute` holds for the call, or null when the model does not write it. */
export function storedValue(m: ModelSchema, attribute: string, given: Given, op: Op, at: Span): Stored | null {
  const f = [...m.fields.values()].find((x) => x.field === attribute);
  if (!f) return null;
  const declaration = fieldDeclaration(m, f);
  const own = valueOf(m, f, given, op);
  if (own) return { value: scalar(own.template, own.span ?? at, declaration), fromSchema: !own.used, declaration };
  if (f.template === undefined) return null;
  const origin = { file: m.schemaFile, span: f.span, via: [] };
  const parts: TemplatePart[] = [];
  let used = false;
  let span: Span | undefined;
  let last = 0;
  for (const hit of f.template.matchAll(TEMPLATE_HOLE)) {
    if (hit.index > last) parts.push({ literal: f.template.slice(last, hit.index), origin });
    last = hit.index + hit[0].length;
    const name = hit[1].split(':')[0];
    const filler = m.fields.get(name);
    const v =
      name === m.typeField
        ? { template: literal(m.name, origin), used: false }
        : filler
          ? valueOf(m, filler, given, op)
          : given(name)?.kind === 'scalar'
            ? made(given(name)!)
            : null;
    if (!v) {
      // OneTable leaves the attribute out, except a find's sort key: begins_with what is filled.
      if (op !== 'find' || parts.length === 0) return null;
      return { value: scalar({ parts }, span ?? at, declaration), fromSchema: !used, begins: true, declaration };
    }
    used ||= v.used;
    span ??= v.span;
    parts.push(...v.template.parts);
  }
  if (last < f.template.length) parts.push({ literal: f.template.slice(last), origin });
  return { value: scalar({ parts }, span ?? at, declaration), fromSchema: !used, declaration };
}

interface Made {
  template: KeyTemplate;
  /** Where the call gave a constant that went into it. */
  span?: Span;
  /** Some property the call gives went into it. */
  used: boolean;
}

const constant = (t: KeyTemplate) => t.parts.every((p) => 'literal' in p);

function made(v: Value): Made | null {
  if (v.kind !== 'scalar') return null;
  return { template: v.template, span: constant(v.template) ? v.span : undefined, used: true };
}

/** A field's own value: given by the call, else (on a create) its default or a generated id. */
function valueOf(m: ModelSchema, f: FieldSchema, given: Given, op: Op): Made | null {
  const v = given(f.name);
  if (v) return made(v);
  if (f.shard && (op === 'put' || f.shard.on === 'every')) return { template: perItem(f.shard.template), used: false };
  if (op !== 'put') return null;
  if (f.default?.kind === 'scalar') return { template: perItem(f.default.template), used: false };
  if (f.generate)
    return {
      template: hole(
        { kind: 'random', source: `${m.name}.${f.name} generated` },
        { file: m.schemaFile, span: f.span, via: [] },
      ),
      used: false,
    };
  return null;
}

/** A default runs per item: its parameters are no wrapper's, a random value in it is drawn per item. */
function perItem(t: KeyTemplate): KeyTemplate {
  return {
    parts: t.parts.map((p) => {
      if (!('hole' in p) || (!p.hole.once && !p.hole.param)) return p;
      const { once: _once, param: _param, ...rest } = p.hole;
      return { ...p, hole: rest };
    }),
  };
}

function scalar(template: KeyTemplate, span: Span, via: Declaration): Value {
  return { kind: 'scalar', template, span, via: [via] };
}
