/**
 * A TypeDORM entity as plain data, read from the recorded `@Entity({ name, primaryKey,
 * indexes, table }) class User` (`Value.made`, `frontends/js/constructions.ts`) and the
 * `Table` its items go to: the entity's own `table`, else the table of the connection
 * the call's manager belongs to (`createConnection({ table, entities })`). The entity
 * holds the key templates (`'USER#{{id}}'`), the table the attribute names they are
 * stored under (`partitionKey: 'PK'`, `indexes: { GSI1: { partitionKey: 'GSI1PK' } }`).
 */
import type { Span } from '../../model';
import { literalText } from '../../model/template';
import { entry, entryOf, type Construction, type Value } from '../../model/value';

export const COMMON = '@typedorm/common';
export const CORE = '@typedorm/core';

/** A key of the entity: the table's (`primary`) or an index's. */
export interface KeySchema {
  /** `primary`, or the index's name (`GSI1`). */
  name: string;
  /** The template (`'USER#{{id}}'`). */
  partition: string;
  sort: string | null;
  /** The `partitionKey: '...'` pair, where the related location points. */
  span: Span;
  /** A local index shares the table's partition. */
  local: boolean;
}

export interface AttributeSchema {
  name: string;
  /** `@AutoGenerateAttribute({ strategy })`: a random id (`UUID4`, `KSUID`) or the clock (`EPOCH_DATE`, `ISO_DATE`). */
  generated?: 'random' | 'time';
  /** `@Attribute({ default })`, a value or what a function returns. */
  default?: Value;
  span: Span;
}

/** Where a table stores each key: the attribute names of the table's and its indexes' keys. */
export interface TableSchema {
  name: Value | undefined;
  partition: string;
  sort: string | null;
  indexes: Map<string, { partition: string | null; sort: string | null }>;
}

export interface EntitySchema {
  /** The entity's `name` (`'user'`), else the class's. */
  name: string;
  className: string;
  nameSpan: Span;
  /** The file the class is declared in ('' when it is the call's own). */
  file: string;
  primary: KeySchema;
  indexes: KeySchema[];
  attributes: Map<string, AttributeSchema>;
  table: TableSchema | null;
  /** The entity names its own table (`@Entity({ table })`), which TypeDORM takes over the connection's. */
  ownTable: boolean;
}

const text = (v: Value | undefined): string | null => (v?.kind === 'scalar' ? literalText(v.template) : null);

/** The recorded `@Entity` of a class value or an instance of one, or null. */
export function entityMade(v: Value | undefined): Construction | null {
  const m = v?.kind === 'object' ? v.made : undefined;
  return m?.module === COMMON && m.name === 'Entity' && m.declared !== undefined ? m : null;
}

/** The entity a class value (`User`) or an instance (`new User()`) is, with the table it goes to. */
export function entitySchema(v: Value | undefined, connectionTable: Value | undefined): EntitySchema | null {
  const m = entityMade(v);
  if (!m) return null;
  const options = m.args[0];
  const primaryPair = entryOf(options, 'primaryKey');
  const primary = primaryPair ? keyOf('primary', primaryPair[1], primaryPair[2]) : null;
  if (!primary) return null;
  const nameText = text(entry(options, 'name'));
  return {
    name: nameText ?? m.declared ?? '',
    className: m.declared ?? '',
    nameSpan: entryOf(options, 'name')?.[2] ?? options.span,
    file: m.file,
    primary,
    indexes: indexesOf(entry(options, 'indexes')),
    attributes: attributesOf(m.args[1]),
    table: tableSchema(entry(options, 'table')) ?? tableSchema(connectionTable),
    ownTable: !!tableSchema(entry(options, 'table')),
  };
}

function keyOf(name: string, v: Value, pair: Span | undefined): KeySchema | null {
  const pk = entryOf(v, 'partitionKey');
  const partition = text(pk?.[1]);
  const local = isLocal(entry(v, 'type'));
  if (partition === null && !local) return null;
  return {
    name,
    partition: partition ?? '',
    sort: text(entry(v, 'sortKey')),
    span: pk?.[2] ?? pair ?? v.span,
    local,
  };
}

/** `type: INDEX_TYPE.LSI` (read as the name written) or the enum's value. */
function isLocal(v: Value | undefined): boolean {
  if (v?.kind !== 'scalar') return false;
  const written = v.template.parts.map((p) => ('literal' in p ? p.literal : p.hole.source)).join('');
  return /LSI$|LOCAL_SECONDARY_INDEX/.test(written);
}

function indexesOf(v: Value | undefined): KeySchema[] {
  if (v?.kind !== 'object') return [];
  return v.entries.flatMap(([name, ix, pair]) => {
    const k = keyOf(name, ix, pair);
    return k ? [k] : [];
  });
}

function attributesOf(fields: Value | undefined): Map<string, AttributeSchema> {
  const out = new Map<string, AttributeSchema>();
  if (fields?.kind !== 'object') return out;
  for (const [name, decorators, span] of fields.entries) {
    const a: AttributeSchema = { name, span: span ?? decorators.span };
    const strategy = entry(entry(decorators, 'AutoGenerateAttribute'), 'strategy');
    if (strategy?.kind === 'scalar') {
      const written = strategy.template.parts.map((p) => ('literal' in p ? p.literal : p.hole.source)).join('');
      a.generated = /DATE$/.test(written) ? 'time' : 'random';
    }
    const d = entry(entry(decorators, 'Attribute'), 'default');
    if (d) a.default = d;
    out.set(name, a);
  }
  return out;
}

/** A recorded `new Table({ name, partitionKey, sortKey, indexes })` of TypeDORM, or null. */
export function tableSchema(v: Value | undefined): TableSchema | null {
  const m = v?.kind === 'object' ? v.made : undefined;
  if (m?.module !== COMMON || m.name !== 'Table') return null;
  const options = m.args[0];
  const partition = text(entry(options, 'partitionKey'));
  if (partition === null) return null;
  const indexes = new Map<string, { partition: string | null; sort: string | null }>();
  const ix = entry(options, 'indexes');
  if (ix?.kind === 'object')
    for (const [name, o] of ix.entries)
      indexes.set(name, { partition: text(entry(o, 'partitionKey')), sort: text(entry(o, 'sortKey')) });
  return { name: entry(options, 'name'), partition, sort: text(entry(options, 'sortKey')), indexes };
}

/** The attribute names a key of the entity is stored under: the table's, or the key's role where no table is read. */
export function storedNames(e: EntitySchema, key: KeySchema): { partition: string; sort: string | null } {
  const t = e.table;
  if (key.name === 'primary') return { partition: t?.partition ?? 'partitionKey', sort: t ? t.sort : 'sortKey' };
  const ix = t?.indexes.get(key.name);
  const partition = key.local ? (t?.partition ?? 'partitionKey') : (ix?.partition ?? `${key.name}.partitionKey`);
  return { partition, sort: ix?.sort ?? (t ? null : `${key.name}.sortKey`) };
}

/** The table of the connection a manager value belongs to: `createConnection({ table })`, else undefined. */
export function connectionTable(manager: Value | undefined): Value | undefined {
  const m = manager?.kind === 'object' ? manager.made : undefined;
  if (m?.module !== CORE || m.name !== 'createConnection') return undefined;
  return entry(m.args[0], 'table');
}

/** Whether a value is one of TypeDORM's connections or managers (`getEntityManager()`). */
export function isManager(v: Value | undefined): boolean {
  return v?.kind === 'object' && v.made?.module === CORE;
}

/**
 * Whether the entity's schema sites are read (`schema-sites.ts`): it names its own table, or
 * the manager's connection lists it in `entities`. Where neither is read (`getEntityManager()`,
 * entities given as a glob), a create is the site of a key the schema fixes.
 */
export function schemaRead(e: EntitySchema, manager: Value | undefined): boolean {
  if (e.ownTable) return true;
  const m = manager?.kind === 'object' ? manager.made : undefined;
  const entities = m?.module === CORE && m.name === 'createConnection' ? entry(m.args[0], 'entities') : undefined;
  return entities?.kind === 'array' && entities.items.some((i) => entityMade(i)?.declared === e.className);
}
