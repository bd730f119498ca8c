/**
 * ElectroDB's stored keys as key templates. ElectroDB writes a partition key as
 * `$<service>#<attr>_<value>...` and a sort key as `$[<collection>#]<entity>_<version>#<attr>_<value>...`,
 * or the key's `template` with `${attr}` filled, then applies the key's `casing`
 * (lower case unless it says `upper` or `none`) to the whole text, values included.
 * A composite attribute the call does not give ends a sort key's prefix: a query's own
 * `begins_with` ends with that attribute's label (`$board_1#player_`), the operand of a
 * sort-key method (`.begins({ ... })`, `.gt(...)`) before it. In a partition key it is a
 * value not read.
 */
import type { KeyTemplate, Origin, TemplatePart } from '../../model';
import { concat, literal } from '../../model/template';
import type { Value } from '../../model/value';
import type { AccessPattern, Casing, EntitySchema, KeyDeclaration } from './schema';

/** The value each composite attribute has at a call, or undefined when the call does not give it. */
export type Composites = (attribute: string) => Value | undefined;

export interface RenderedKey {
  template: KeyTemplate;
  /** Every composite attribute had a value; else the key is a prefix ending at the first one missing. */
  complete: boolean;
  /** The composite attributes that had one, in order. */
  given: string[];
}

function cased(s: string, casing: Casing): string {
  return casing === 'lower' ? s.toLowerCase() : casing === 'upper' ? s.toUpperCase() : s;
}

/** A value's template with the key's casing applied to its literal text (holes stay what they are). */
function casedTemplate(v: Value, casing: Casing): KeyTemplate {
  if (v.kind !== 'scalar') return { parts: [{ hole: { kind: 'unknown', source: '{...}' } }] };
  return {
    parts: v.template.parts.map((p): TemplatePart =>
      'literal' in p ? { ...p, literal: cased(p.literal, casing) } : p,
    ),
  };
}

/**
 * The key a declaration makes: `prefix` is ElectroDB's own head (`$app`, `$board_1`)
 * for keys without a template; `origin` names the declaration as the origin of the
 * literal text the schema writes.
 */
export function renderKey(
  key: KeyDeclaration,
  head: string,
  values: Composites,
  origin: Origin,
  prefix: Prefix,
): RenderedKey {
  const lit = (s: string) => literal(cased(s, key.casing), origin);
  const pieces: KeyTemplate[] = [];
  const given: string[] = [];
  if (key.template !== null) {
    // `BOARD#${board}`: the text between the holes is the schema's.
    const re = /\$\{(\w+)\}/g;
    let at = 0;
    for (let m = re.exec(key.template); m; m = re.exec(key.template)) {
      pieces.push(lit(key.template.slice(at, m.index)));
      const v = values(m[1]);
      if (!v) return { template: prefixOrUnknown(pieces, m[1], prefix !== 'none'), complete: false, given };
      pieces.push(casedTemplate(v, key.casing));
      given.push(m[1]);
      at = m.index + m[0].length;
    }
    pieces.push(lit(key.template.slice(at)));
    return { template: concat(...pieces), complete: true, given };
  }
  pieces.push(lit(head));
  for (const attr of key.composite) {
    const v = values(attr);
    if (!v && prefix === 'operand') return { template: concat(...pieces), complete: false, given };
    pieces.push(lit(`#${attr}_`));
    if (!v) return { template: prefixOrUnknown(pieces, attr, prefix !== 'none'), complete: false, given };
    pieces.push(casedTemplate(v, key.casing));
    given.push(attr);
  }
  return { template: concat(...pieces), complete: true, given };
}

/** How a key missing a composite attribute ends: a hole (`none`), or a prefix with or without the attribute's label. */
export type Prefix = 'none' | 'labelled' | 'operand';

/** A sort key's prefix stops at the attribute missing; a partition key has a hole there. */
function prefixOrUnknown(pieces: KeyTemplate[], attr: string, prefixAllowed: boolean): KeyTemplate {
  if (prefixAllowed) return concat(...pieces);
  return concat(...pieces, { parts: [{ hole: { kind: 'unknown', source: attr } }] });
}

/** ElectroDB's own partition-key head: `$<service>`. */
export function partitionPrefix(e: EntitySchema): string {
  return `$${e.service}`;
}

/** ElectroDB's own sort-key head: `$<entity>_<version>`, or `$<collection>#<entity>_<version>`. */
export function sortPrefix(e: EntitySchema, p: AccessPattern): string {
  return `$${p.collection ? `${p.collection}#` : ''}${e.entity}_${e.version}`;
}
