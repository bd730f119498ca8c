/**
 * The value a toolbox entity stores in one attribute, from what a call gives: the
 * entity's name in its entity attribute (`_et`), a `computeKey` entry, a v0 composite
 * key (`status#date`), or the attribute's own value (given, else linked, else its
 * default) with its prefix and suffix. The template is what DynamoDB holds, so
 * Contributor Insights' keys match it.
 */
import type { Declaration, KeyTemplate, Origin, Span, TemplatePart } from '../../model';
import { concat, literal } from '../../model/template';
import type { Value } from '../../model/value';
import { entry } from '../../model/value';
import type { AttributeSchema, EntitySchema } from './schema';

/** The values a call gives, by entity attribute name. */
export type Given = (attr: string) => Value | undefined;

export interface Stored {
  value: Value;
  /** The schema alone made it (no attribute the call gives went into it). */
  fromSchema: boolean;
  /** The attribute declaration it comes from, for the related location. */
  declaration: Declaration | null;
}

export function attributeDeclaration(e: EntitySchema, a: AttributeSchema): Declaration {
  return { name: `${e.name}.${a.name}`, file: a.file ?? e.file, span: a.span, valueSpan: a.span };
}

/** What `field` holds for the call, or null when the entity does not write it. */
export function storedValue(e: EntitySchema, field: string, given: Given, at: Span): Stored | null {
  const origin = (span: Span): Origin => ({ file: e.file, span, via: [] });
  if (e.storesName && field === e.table.entityField) {
    const decl = { name: `${e.name} entity`, file: e.file, span: e.nameSpan, valueSpan: e.nameSpan };
    return { value: scalar(literal(e.name, origin(e.nameSpan)), at, [decl]), fromSchema: true, declaration: decl };
  }
  const computed = entry(e.computed, field);
  if (computed?.kind === 'scalar') {
    const filled = fill(computed.template, given, (name) => e.attributes.get(name)?.default);
    return { value: scalar(filled.template, filled.span ?? at, []), fromSchema: !filled.used, declaration: null };
  }
  const parts = [...e.attributes.values()].filter((a) => a.partOf?.field === field);
  if (parts.length > 0) {
    parts.sort((a, b) => a.partOf!.position - b.partOf!.position);
    const values = parts.map((a) => attributeValue(a, given, origin));
    if (values.some((v) => !v)) return null;
    const joined: KeyTemplate[] = [];
    values.forEach((v, i) => {
      if (i > 0) joined.push(literal(e.delimiter, origin(parts[i].span)));
      joined.push(v!.template);
    });
    const span = values.find((v) => v!.span)?.span ?? at;
    return {
      value: scalar(concat(...joined), span, [attributeDeclaration(e, parts[0])]),
      fromSchema: values.every((v) => !v!.used),
      declaration: attributeDeclaration(e, parts[0]),
    };
  }
  const a = [...e.attributes.values()].find((x) => x.field === field && !x.partOf);
  if (!a) return null;
  const v = attributeValue(a, given, origin);
  if (!v) return null;
  const decl = attributeDeclaration(e, a);
  return { value: scalar(v.template, v.span ?? at, [decl]), fromSchema: !v.used, declaration: decl };
}

interface Made {
  template: KeyTemplate;
  /** Where the call gave a constant that went into it. */
  span?: Span;
  /** Some attribute the call gives went into it. */
  used: boolean;
}

function attributeValue(a: AttributeSchema, given: Given, origin: (s: Span) => Origin): Made | null {
  const raw = rawValue(a, given);
  if (!raw) return null;
  const t = concat(
    literal(a.prefix, a.prefix ? origin(a.span) : undefined),
    raw.template,
    literal(a.suffix, a.suffix ? origin(a.span) : undefined),
  );
  return { ...raw, template: t };
}

function rawValue(a: AttributeSchema, given: Given): Made | null {
  const v = given(a.name);
  if (v?.kind === 'scalar')
    return { template: v.template, span: constant(v.template) ? v.span : undefined, used: true };
  if (v) return null;
  if (a.link?.kind === 'scalar') return fill(a.link.template, given, () => undefined);
  // A key attribute's default applies to key operations (a get) as well as to writes.
  if (a.default?.kind === 'scalar') return { template: perItem(a.default.template), used: false };
  return null;
}

/**
 * A linked or computed key: each parameter it reads (`({ userId }) => ...`) filled from
 * the call, else from the attribute's default (a random shard drawn per item).
 */
function fill(t: KeyTemplate, given: Given, defaults: Given): Made {
  let used = false;
  let span: Span | undefined;
  const parts: TemplatePart[] = [];
  for (const p of t.parts) {
    const param = 'hole' in p ? p.hole.param : undefined;
    const name = param ? (param.path?.[0] ?? param.name) : null;
    const v = name ? given(name) : undefined;
    if (v?.kind === 'scalar') {
      used = true;
      if (constant(v.template)) span ??= v.span;
      parts.push(...v.template.parts);
      continue;
    }
    const d = name ? defaults(name) : undefined;
    if (d?.kind === 'scalar') parts.push(...perItem(d.template).parts);
    else parts.push('hole' in p ? { ...p, hole: unmarked(p.hole) } : p);
  }
  return { template: { parts }, span, used };
}

const constant = (t: KeyTemplate) => t.parts.every((p) => 'literal' in p);

/** A default function runs per item: a random value in it is drawn per item, and its parameters are no wrapper's. */
function perItem(t: KeyTemplate): KeyTemplate {
  return { parts: t.parts.map((p) => ('hole' in p ? { ...p, hole: unmarked(p.hole) } : p)) };
}

function unmarked<H extends { once?: unknown; param?: unknown }>(h: H): H {
  if (!h.once && !h.param) return h;
  const { once: _once, param: _param, ...rest } = h;
  return rest as H;
}

function scalar(template: KeyTemplate, span: Span, via: Declaration[]): Value {
  return { kind: 'scalar', template, span, via };
}
