/**
 * A dynamodb-toolbox table and entity as plain data, read from their recorded
 * constructions (`Value.made`). v0 declares attributes as options objects
 * (`{ partitionKey: true, prefix, default, map }`, composite keys `['sk', 0]`); v1/v2 as
 * builders (`string().key().savedAs('PK').transform(prefix('USER')).default(...)`) in
 * `item({...})`, with `computeKey` or `.link()` for keys made of other attributes.
 * Either way an attribute becomes where it is stored and how its stored value is made.
 */
import type { Span } from '../../model';
import { literalText } from '../../model/template';
import { entry, entryOf, type Value } from '../../model/value';

export interface IndexSchema {
  name: string;
  /** The index's partition-key attribute (a local index shares the table's). */
  pk: string;
  sk: string | null;
}

export interface TableSchema {
  name: Value | undefined;
  pk: string;
  sk: string | null;
  indexes: IndexSchema[];
  /** Where the entity's name is stored (`_et` unless the table says otherwise). */
  entityField: string;
}

export interface AttributeSchema {
  name: string;
  /** The attribute it is stored as (`savedAs`, v0 `map`). */
  field: string;
  /** Stored as `prefix + delimiter + value` (v1 `prefix()`; v0 `prefix` with no delimiter). */
  prefix: string;
  suffix: string;
  /** Given when a call leaves it out (`default`, `const`, `keyDefault`, `putDefault`). */
  default?: Value;
  /** Computed from the other attributes (`link`, v0 `default: (data) => ...`). */
  link?: Value;
  /** v0 composite key: the part this attribute is of another attribute (`['sk', 0]`). */
  partOf?: { field: string; position: number };
  /** The attribute's declaration, where a finding on the schema points. */
  span: Span;
  /** The file it is written in, when known from its text (a factory's caller gives it: not the entity's file). */
  file?: string;
}

export interface EntitySchema {
  version: 0 | 1;
  name: string;
  /** Where the entity's name is declared. */
  nameSpan: Span;
  table: TableSchema;
  attributes: Map<string, AttributeSchema>;
  /** v1 `computeKey`: the object it returns, by stored key attribute. */
  computed: Value | undefined;
  /** v0 composite keys' delimiter (`#`). */
  delimiter: string;
  /** The entity's name is stored (`entityAttribute: false` / v0 `typeAlias` off stores none). */
  storesName: boolean;
  file: string;
  span: Span;
}

const text = (v: Value | undefined): string | null => (v?.kind === 'scalar' ? literalText(v.template) : null);
const made = (v: Value | undefined, name: string) =>
  v?.kind === 'object' && v.made?.module === 'dynamodb-toolbox' && v.made.name === name ? v.made : null;

/** A toolbox `Table` construction, v0 (`partitionKey: 'pk'`) or v1 (`partitionKey: { name: 'pk', type }`). */
export function tableSchema(v: Value | undefined): TableSchema | null {
  const m = made(v, 'Table');
  if (!m) return null;
  const o = m.args[0];
  const keyName = (k: Value | undefined) => text(k) ?? text(entry(k, 'name'));
  const pk = keyName(entry(o, 'partitionKey'));
  if (pk === null) return null;
  const indexes: IndexSchema[] = [];
  const ix = entry(o, 'indexes');
  if (ix?.kind === 'object')
    for (const [name, i] of ix.entries) {
      const ipk = keyName(entry(i, 'partitionKey')) ?? pk;
      indexes.push({ name, pk: ipk, sk: keyName(entry(i, 'sortKey')) });
    }
  return {
    name: entry(o, 'name'),
    pk,
    sk: keyName(entry(o, 'sortKey')),
    indexes,
    entityField: text(entry(o, 'entityAttributeSavedAs')) ?? text(entry(o, 'entityField')) ?? '_et',
  };
}

/** A toolbox `Entity` construction, or null when it is not one or its table and name are not read. */
export function entitySchema(v: Value | undefined): EntitySchema | null {
  const m = made(v, 'Entity');
  if (!m || v?.kind !== 'object') return null;
  const o = m.args[0];
  const nameEntry = entryOf(o, 'name');
  const name = text(nameEntry?.[1]);
  const table = tableSchema(entry(o, 'table'));
  if (name === null || !nameEntry || !table) return null;
  const schema = entry(o, 'schema');
  const v1 = made(schema, 'item') ?? made(schema, 'schema');
  const attributes = v1
    ? withAdded(builderAttributes(v1.args[0]), v1.calls)
    : optionAttributes(entry(o, 'attributes'), table);
  if (!attributes) return null;
  const entityAttribute = entry(o, 'entityAttribute') ?? entry(o, 'typeAlias');
  return {
    version: v1 ? 1 : 0,
    name,
    nameSpan: nameEntry[2] ?? nameEntry[1].span,
    table,
    attributes,
    computed: v1 ? entry(o, 'computeKey') : undefined,
    delimiter: text(entry(o, 'delimiter')) ?? '#',
    storesName: text(entityAttribute) !== 'false' && text(entry(o, 'typeHidden')) !== 'true',
    file: m.file,
    span: v.span,
  };
}

/** v1 attributes: `{ pk: string().key().savedAs('PK').transform(prefix('USER')).default('X') }`. */
function builderAttributes(props: Value | undefined): Map<string, AttributeSchema> | null {
  if (props?.kind !== 'object') return null;
  const out = new Map<string, AttributeSchema>();
  for (const [name, value, pair] of props.entries) {
    const a: AttributeSchema = { name, field: name, prefix: '', suffix: '', span: pair ?? value.span };
    const m = value.kind === 'object' ? value.made : undefined;
    for (const call of m?.calls ?? []) {
      const arg = call.args[0];
      if (call.name === 'savedAs') a.field = text(arg) ?? a.field;
      else if (/^(default|keyDefault|putDefault|const)$/.test(call.name)) a.default = arg;
      else if (/^(link|keyLink|putLink)$/.test(call.name)) a.link = arg;
      else if (call.name === 'transform') transformOf(arg, a);
    }
    out.set(name, a);
  }
  return out;
}

/**
 * The attributes `item({...}).and((prevSchema) => ({...}))` adds: the library's way to
 * declare an attribute linked to the others (its link typed by `typeof prevSchema`).
 */
function withAdded(
  attributes: Map<string, AttributeSchema> | null,
  calls: Array<{ name: string; args: Value[] }> | undefined,
): Map<string, AttributeSchema> | null {
  for (const call of calls ?? []) {
    const added = call.name === 'and' ? builderAttributes(call.args[0]) : null;
    if (attributes && added) for (const [name, a] of added) attributes.set(name, a);
  }
  return attributes;
}

/** `prefix('USER')`, `prefix('USER', { delimiter: '-' })`, `suffix(...)`. */
function transformOf(t: Value | undefined, a: AttributeSchema): void {
  const m = t?.kind === 'object' ? t.made : undefined;
  if (!m || (m.name !== 'prefix' && m.name !== 'suffix')) return;
  const value = text(m.args[0]);
  if (value === null) return;
  const delimiter = text(entry(m.args[1], 'delimiter')) ?? '#';
  if (m.name === 'prefix') a.prefix = value + delimiter;
  else a.suffix = delimiter + value;
}

/** v0 attributes: `{ pk: { partitionKey: true, prefix: 'USER#' }, status: ['sk', 0], name: 'string' }`. */
function optionAttributes(props: Value | undefined, table: TableSchema): Map<string, AttributeSchema> | null {
  if (props?.kind !== 'object') return null;
  const out = new Map<string, AttributeSchema>();
  for (const [name, value, pair] of props.entries) {
    const a: AttributeSchema = { name, field: name, prefix: '', suffix: '', span: pair ?? value.span };
    const written = writtenIn(value);
    if (written) a.file = written;
    if (value.kind === 'array') {
      const field = text(value.items[0]);
      const position = Number(text(value.items[1]));
      if (field !== null && Number.isInteger(position)) a.partOf = { field, position };
      const options = value.items[2];
      readOptions(options, a);
    } else readOptions(value, a);
    // `partitionKey: true` names the table's key (or an index's: `partitionKey: 'GSI1'`).
    const pk = text(entry(value, 'partitionKey'));
    const sk = text(entry(value, 'sortKey'));
    if (pk === 'true' && a.field === name && !entry(value, 'map')) a.field = table.pk;
    if (sk === 'true' && a.field === name && !entry(value, 'map') && table.sk) a.field = table.sk;
    for (const ix of table.indexes) {
      if (pk === ix.name && !entry(value, 'map')) a.field = ix.pk;
      if (sk === ix.name && !entry(value, 'map') && ix.sk) a.field = ix.sk;
    }
    out.set(name, a);
  }
  return out;
}

/** The file the first text of a value with a known origin was written in (`'string'`, a prefix), or null. */
function writtenIn(v: Value, depth = 0): string | null {
  if (depth > 4) return null;
  if (v.kind === 'scalar') return v.template.parts.find((p) => p.origin?.file)?.origin?.file ?? null;
  const inner = v.kind === 'object' ? v.entries.map((e) => e[1]) : v.kind === 'array' ? v.items : [];
  for (const x of inner) {
    const f = writtenIn(x, depth + 1);
    if (f) return f;
  }
  return null;
}

function readOptions(o: Value | undefined, a: AttributeSchema): void {
  if (o?.kind !== 'object') return;
  a.field = text(entry(o, 'map')) ?? a.field;
  a.prefix = text(entry(o, 'prefix')) ?? '';
  a.suffix = text(entry(o, 'suffix')) ?? '';
  const d = entry(o, 'default');
  // `default: (data) => \`${data.a}#${data.b}\`` reads other attributes: a link.
  if (d?.kind === 'scalar' && d.template.parts.some((p) => 'hole' in p && p.hole.param)) a.link = d;
  else if (d) a.default = d;
}
