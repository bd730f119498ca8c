/**
 * ElectroDB's stored keys as key templates. ElectroDB writes a partition key as
 * `$<service>#<attr>_<value>...` and a sort key as `$[<collection>#]<entity>_<version>#<attr>_<value>...`
 * (an index without a sort key has the entity's name in its partition key instead, an index's
 * `scope` follows the head, and a `clustered` index puts the entity's name at the sort key's end),
 * or the key's `template` with `${attr}` filled, then applies the key's `casing`
 * (lower case unless it says `upper` or `none`) to the whole text, values included.
 * A composite attribute the call does not give ends a sort key's prefix: a query's own
 * `begins_with` ends with that attribute's label (`$board_1#player_`), the operand of a
 * sort-key method (`.begins({ ... })`, `.gt(...)`) before it. In a partition key it is a
 * value not read.
 */
import type { KeyTemplate, Origin, TemplatePart } from '../../model';
import { concat, literal, literalText } from '../../model/template';
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
 * The key a declaration makes: `head` is ElectroDB's own text (`$app`, `$board_1`) for keys
 * without a template, with what follows the last composite attribute of a whole key; `origin`
 * names the declaration as the origin of the literal text the schema writes.
 */
export function renderKey(
  key: KeyDeclaration,
  head: OwnText,
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
  // The service's own text is the schema's too: it takes the declaration as its origin. A part
  // not known here (`Config.APP`, `process.env.SERVICE`) is still one value for every item:
  // the entity is made once, with one service name.
  const own = (v: Value): KeyTemplate[] =>
    v.kind === 'scalar'
      ? v.template.parts.map((p) =>
          'literal' in p ? lit(p.literal) : { parts: [{ hole: { kind: 'constant' as const, source: p.hole.source } }] },
        )
      : [];
  for (const h of head.head) pieces.push(...(typeof h === 'string' ? [lit(h)] : own(h)));
  for (const attr of key.composite) {
    const v = values(attr);
    if (!v && prefix === 'operand') return { template: concat(...pieces), complete: false, given };
    pieces.push(lit(`#${attr}_`));
    if (!v) return { template: prefixOrUnknown(pieces, attr, prefix !== 'none'), complete: false, given };
    pieces.push(casedTemplate(v, key.casing));
    given.push(attr);
  }
  if (head.tail) pieces.push(lit(head.tail));
  return { template: concat(...pieces), complete: true, given };
}

/** How a key missing a composite attribute ends: a hole (`none`), or a prefix with or without the attribute's label. */
export type Prefix = 'none' | 'labelled' | 'operand';

/** A sort key's prefix stops at the attribute missing; a partition key has a hole there. */
function prefixOrUnknown(pieces: KeyTemplate[], attr: string, prefixAllowed: boolean): KeyTemplate {
  if (prefixAllowed) return concat(...pieces);
  return concat(...pieces, { parts: [{ hole: { kind: 'unknown', source: attr } }] });
}

/** The text ElectroDB writes around a key's composite attributes: before them, and after the last. */
export interface OwnText {
  /** Text, and the service's value (`$` then `model.service`, which may be known only at deploy time). */
  head: Array<string | Value>;
  tail?: string;
}

/** What ElectroDB names the entity by in a key: `$vote_1`, or `#vote_1` after a collection's name. */
function entityName(e: EntitySchema, p: AccessPattern): string {
  return `${p.collection ? '#' : '$'}${e.entity}_${e.version}`;
}

/**
 * ElectroDB's own partition-key head: `$<service>`, then the entity's name when the index has
 * no sort key to hold it (`$app$vote_1`), then `_<scope>` (`$app_org`).
 */
export function partitionPrefix(e: EntitySchema, p: AccessPattern): OwnText {
  const text = e.service.kind === 'scalar' ? literalText(e.service.template) : null;
  // A literal service and what follows it are one text: one part of the key.
  const rest = `${p.sk ? '' : entityName(e, p)}${p.scope ? `_${p.scope}` : ''}`;
  return { head: text !== null ? [`$${text}${rest}`] : ['$', e.service, ...(rest ? [rest] : [])] };
}

/**
 * ElectroDB's own sort-key text: `$<entity>_<version>` or `$<collection>#<entity>_<version>`
 * before the attributes; a clustered index writes the collection's name before them and the
 * entity's after (`$votes#user_u#vote_1`).
 */
export function sortPrefix(e: EntitySchema, p: AccessPattern): OwnText {
  const collection = p.collection ? `$${p.collection}` : '';
  return p.clustered ? { head: [collection], tail: entityName(e, p) } : { head: [`${collection}${entityName(e, p)}`] };
}
