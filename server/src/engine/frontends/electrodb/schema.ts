/**
 * An ElectroDB entity's schema as plain data, read from the recorded construction
 * (`new Entity(schema, config)`, `Value.made`): the names its keys are made of
 * (`model.service`, `model.entity`, `model.version`), its attributes' `default` and
 * `set` values, and each access pattern's index with its key fields, composite
 * attributes, `template` and `casing` (ElectroDB v2 and v3 write keys alike).
 */
import type { Span } from '../../model';
import type { KeyNames, TableHint } from '../../model/call-site';
import { literalText } from '../../model/template';
import { entry, entryOf, type Value } from '../../model/value';

export type Casing = 'lower' | 'upper' | 'none';

export interface KeyDeclaration {
  /** The attribute the key is stored in (`pk`, `gsi1pk`). */
  field: string;
  composite: string[];
  /** `template: "BOARD#${board}"`, or null for ElectroDB's own form. */
  template: string | null;
  casing: Casing;
  /** The `pk: { ... }` pair, where findings on the schema point. */
  span: Span;
  /** The `composite: [...]` pair, or the key's span when it is not written. */
  compositeSpan: Span;
  /** The `[...]` of `composite` and the `template` string as written, for a fix that edits them. */
  compositeArray: Span | null;
  templateSpan: Span | null;
}

export interface AccessPattern {
  name: string;
  /** The secondary index it reads (`index: "gsi1pk-gsi1sk-index"`), or null for the table. */
  index: string | null;
  collection: string | null;
  /** `scope: "org"`: text ElectroDB adds to the partition key's own head (`$app_org`). */
  scope: string | null;
  /** `type: "clustered"`: the sort key ends with the entity's name instead of beginning with it. */
  clustered: boolean;
  pk: KeyDeclaration;
  sk: KeyDeclaration | null;
}

export interface AttributeSchema {
  /** `default`: a value or what its function returns. */
  default?: Value;
  /** `set`: what the setter returns, which is what is stored. */
  set?: Value;
}

export interface EntitySchema {
  entity: string;
  version: string;
  /** `model.service`: literal text, or a value known only at deploy time (`Config.APP`, an environment variable). */
  service: Value;
  /** The `table` of the entity's (or its service's) configuration. */
  table: Value | undefined;
  attributes: Map<string, AttributeSchema>;
  /** The `attributes: { ... }` object as written, or null when it is not an object literal. */
  attributesSpan: Span | null;
  patterns: AccessPattern[];
  /** Where `new Entity(...)` is written. */
  file: string;
  span: Span;
}

const text = (v: Value | undefined): string | null => (v?.kind === 'scalar' ? literalText(v.template) : null);

/** The entity schema an ElectroDB `Entity` construction holds, or null when it is not one or its names are not read. */
export function entitySchema(v: Value | undefined, serviceConfig?: Value): EntitySchema | null {
  if (v?.kind !== 'object' || v.made?.module !== 'electrodb' || v.made.name !== 'Entity') return null;
  const schema = v.made.args[0];
  const model = entry(schema, 'model');
  const entity = text(entry(model, 'entity'));
  const service = entry(model, 'service');
  const version = text(entry(model, 'version')) ?? '1';
  if (entity === null || service?.kind !== 'scalar') return null;
  const attributes = new Map<string, AttributeSchema>();
  const attrs = entry(schema, 'attributes');
  if (attrs?.kind === 'object') {
    for (const [name, a] of attrs.entries) {
      const def = entry(a, 'default');
      const set = entry(a, 'set');
      attributes.set(name, { ...(def ? { default: def } : {}), ...(set ? { set } : {}) });
    }
  }
  const indexes = entry(schema, 'indexes');
  const patterns =
    indexes?.kind === 'object'
      ? indexes.entries.flatMap(([name, ix]) => {
          const p = accessPattern(name, ix);
          return p ? [p] : [];
        })
      : [];
  const table = entry(v.made.args[1], 'table') ?? entry(serviceConfig, 'table');
  const attributesSpan = attrs?.kind === 'object' ? attrs.span : null;
  return { entity, version, service, table, attributes, attributesSpan, patterns, file: v.made.file, span: v.span };
}

function accessPattern(name: string, ix: Value): AccessPattern | null {
  const pk = keyDeclaration(entryOf(ix, 'pk'));
  if (!pk) return null;
  return {
    name,
    index: text(entry(ix, 'index')),
    collection: text(entry(ix, 'collection')),
    scope: text(entry(ix, 'scope')),
    clustered: text(entry(ix, 'type')) === 'clustered',
    pk,
    sk: keyDeclaration(entryOf(ix, 'sk')),
  };
}

function keyDeclaration(e: ReturnType<typeof entryOf>): KeyDeclaration | null {
  if (!e) return null;
  const [, key, pair] = e;
  const field = text(entry(key, 'field'));
  if (field === null) return null;
  // `facets` is the name ElectroDB's first versions gave `composite` (still read by v2).
  const composite = entryOf(key, 'composite') ?? entryOf(key, 'facets');
  const names = composite?.[1].kind === 'array' ? composite[1].items.map(text) : [];
  if (names.some((n) => n === null)) return null;
  const casing = text(entry(key, 'casing'));
  const template = entry(key, 'template');
  return {
    field,
    composite: names as string[],
    template: text(template),
    casing: casing === 'upper' || casing === 'none' ? casing : 'lower',
    span: pair ?? key.span,
    compositeSpan: composite?.[2] ?? pair ?? key.span,
    compositeArray: composite?.[1].kind === 'array' ? composite[1].span : null,
    templateSpan: template?.kind === 'scalar' ? template.span : null,
  };
}

/**
 * The key names the entity's patterns give its table and each index, by the index name
 * ElectroDB sends: what a write's index partitions are named by when no query of the
 * table tells them (its table unnamed in code, or queried in no file read).
 */
export function keySchemaOf(e: EntitySchema): TableHint {
  const names = (p: AccessPattern): KeyNames => ({ partition: p.pk.field, ...(p.sk ? { sort: p.sk.field } : {}) });
  const primary = e.patterns.find((p) => p.index === null);
  const indexes: Record<string, KeyNames> = {};
  for (const p of e.patterns) if (p.index !== null && !indexes[p.index]) indexes[p.index] = names(p);
  return { ...(primary ? names(primary) : {}), indexes };
}

/**
 * The entities of an ElectroDB `Service` construction (`new Service({ board: Board }, { table })`),
 * by the name the service gives them.
 */
export function serviceEntities(v: Value | undefined): Map<string, EntitySchema> {
  const out = new Map<string, EntitySchema>();
  if (v?.kind !== 'object' || v.made?.module !== 'electrodb' || v.made.name !== 'Service') return out;
  const members = v.made.args[0];
  if (members?.kind !== 'object') return out;
  for (const [name, e] of members.entries) {
    const s = entitySchema(e, v.made.args[1]);
    if (s) out.set(name, s);
  }
  return out;
}
