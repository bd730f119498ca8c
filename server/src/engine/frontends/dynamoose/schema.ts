/**
 * A dynamoose model as plain data, read from its recorded declaration
 * (`dynamoose.model("Cat", schema, options)`, `Value.made`): the table it is stored in,
 * its hash and range keys, its indexes as dynamoose names and keys them, and each
 * attribute's `default` and aliases. dynamoose stores an attribute under its schema
 * name, so the stored names are the schema's.
 */
import type { Span } from '../../model';
import type { TableHint } from '../../model/call-site';
import { concat, literal, literalText } from '../../model/template';
import { entry, entryOf, type Value } from '../../model/value';

export interface AttributeSchema {
  name: string;
  /** Given on a write that leaves the attribute out (`default: "x"`, `default: () => uuid()`). */
  default?: Value;
  /** Other names a call may give it by (`alias`, `aliases`, `map`). */
  aliases: string[];
  /** The attribute's declaration, where a finding on the schema points. */
  span: Span;
}

export interface IndexSchema {
  name: string;
  hash: string;
  range: string | null;
  /** The attribute that declares the index, whose declaration a finding names. */
  attribute: string;
}

export interface ModelSchema {
  name: string;
  /** Where the model's name is written. */
  nameSpan: Span;
  /** `prefix` + (`tableName` or the model's name) + `suffix`. */
  table: Value;
  hash: string;
  range: string | null;
  /** In the order dynamoose weighs them when a query names no index: its first kind of index first, the table last. */
  indexes: IndexSchema[];
  attributes: Map<string, AttributeSchema>;
  file: string;
}

const text = (v: Value | undefined): string | null => (v?.kind === 'scalar' ? literalText(v.template) : null);

/** A model's declaration, or the model an instance was made from (`new Cat({...})`), with the instance's item. */
export function modelOf(v: Value | undefined): { model: ModelSchema; item?: Value } | null {
  const m = v?.kind === 'object' ? v.made : undefined;
  if (m?.module !== 'dynamoose' || m.name !== 'model' || !m.calls) return null;
  const model = modelSchema(m.args, m.file, m.joins?.[0]?.args, m.settings);
  if (!model) return null;
  if (m.calls.length === 0) return { model };
  const last = m.calls[m.calls.length - 1];
  return m.calls.length === 1 && last.name === 'new' ? { model, item: last.args[0] } : null;
}

function modelSchema(args: Value[], file: string, table?: Value[], defaults?: Value[]): ModelSchema | null {
  const [nameArg, schemaArg, options] = args;
  const name = text(nameArg);
  if (name === null || !nameArg) return null;
  // Several schemas share the keys (dynamoose requires it): the first one's are read.
  const first = schemaArg?.kind === 'array' ? schemaArg.items[0] : schemaArg;
  const made = first?.kind === 'object' ? first.made : undefined;
  const definition = made?.module === 'dynamoose' && made.name === 'Schema' ? made.args[0] : first;
  if (definition?.kind !== 'object' || definition.entries.length === 0) return null;
  const attributes = new Map<string, AttributeSchema>();
  let hash: string | null = null;
  let range: string | null = null;
  const global: IndexSchema[] = [];
  const local: IndexSchema[] = [];
  let localFirst: boolean | null = null;
  for (const [attr, def, pair] of definition.entries) {
    const a: AttributeSchema = { name: attr, aliases: aliasesOf(def), span: pair ?? def.span };
    const d = entry(def, 'default');
    if (d) a.default = d;
    attributes.set(attr, a);
    if (text(entry(def, 'hashKey')) === 'true') hash ??= attr;
    if (text(entry(def, 'rangeKey')) === 'true') range ??= attr;
  }
  // No attribute marked `hashKey`: the first one is the hash key (dynamoose's `Schema.hashKey`).
  hash ??= definition.entries[0][0];
  for (const [attr, def] of definition.entries)
    for (const ix of indexSettings(entry(def, 'index'))) {
      // dynamoose 3 and 4: `type`, global unless 'local'; before it, `global: true`.
      const isGlobal = ix.global ?? ix.type !== 'local';
      localFirst ??= !isGlobal;
      const index: IndexSchema = isGlobal
        ? { name: ix.name ?? `${attr}GlobalIndex`, hash: attr, range: ix.rangeKey, attribute: attr }
        : { name: ix.name ?? `${attr}LocalIndex`, hash, range: attr, attribute: attr };
      (isGlobal ? global : local).push(index);
    }
  return {
    name,
    nameSpan: nameArg.span,
    table: tableName(name, nameArg, options, table, defaults ?? []),
    hash,
    range,
    indexes: localFirst ? [...local, ...global] : [...global, ...local],
    attributes,
    file,
  };
}

interface IndexSetting {
  name: string | null;
  type: string | null;
  global: boolean | null;
  rangeKey: string | null;
}

/** `index: true`, `index: { name, type, rangeKey }`, or an array of those. */
function indexSettings(v: Value | undefined): IndexSetting[] {
  if (!v) return [];
  if (v.kind === 'array') return v.items.flatMap(indexSettings);
  if (text(v) === 'true') return [{ name: null, type: null, global: null, rangeKey: null }];
  if (v.kind !== 'object') return [];
  const global = text(entry(v, 'global'));
  return [
    {
      name: text(entry(v, 'name')),
      type: text(entry(v, 'type')),
      global: global === null ? null : global === 'true',
      rangeKey: text(entry(v, 'rangeKey')),
    },
  ];
}

function aliasesOf(def: Value): string[] {
  const out: string[] = [];
  for (const key of ['alias', 'aliases', 'map']) {
    const v = entry(def, key);
    for (const item of v?.kind === 'array' ? v.items : v ? [v] : []) {
      const t = text(item);
      if (t !== null) out.push(t);
    }
  }
  return out;
}

/**
 * The table a model is stored in: `prefix` + name + `suffix`. The name is the table's that
 * holds the model (`new Table("catalog", [Model], options)`), else the model's `tableName`, else
 * its own name; `prefix` and `suffix` are that table's options' (or the model's), else those of
 * the module's last `Table.defaults.set({...})` (each call replaces the defaults whole), as
 * dynamoose combines them.
 */
function tableName(
  name: string,
  nameArg: Value,
  modelOptions: Value | undefined,
  table: Value[] | undefined,
  defaults: Value[],
): Value {
  const options = table ? table[1] : modelOptions;
  const given = table ? table[0] : entryOf(modelOptions, 'tableName')?.[1];
  const base = given?.kind === 'scalar' ? given : { ...nameArg, template: literal(name) };
  if (base.kind !== 'scalar') return base;
  const fix = (key: string) => {
    const found = entry(options, key) ?? defaultOf(defaults, key);
    return found?.kind === 'scalar' ? found.template : literal('');
  };
  return { ...base, template: concat(fix('prefix'), base.template, fix('suffix')) };
}

/** A key of the module's defaults: the last `Table.defaults.set` giving it (each call replaces the defaults whole). */
function defaultOf(defaults: Value[], key: string): Value | undefined {
  const last = defaults[defaults.length - 1];
  return last ? entry(last, key) : undefined;
}

/** The name a call gives an attribute by (an alias) as the schema names it. */
export function attributeNamed(m: ModelSchema, name: string): string {
  if (m.attributes.has(name)) return name;
  for (const a of m.attributes.values()) if (a.aliases.includes(name)) return a.name;
  return name;
}

/** The key names of the model's table and indexes, which the request reader reads the requests by. */
export function keySchemaOf(m: ModelSchema): TableHint {
  const names = (hash: string, range: string | null) => ({ partition: hash, ...(range ? { sort: range } : {}) });
  return {
    ...names(m.hash, m.range),
    ...(m.indexes.length
      ? { indexes: Object.fromEntries(m.indexes.map((ix) => [ix.name, names(ix.hash, ix.range)])) }
      : {}),
  };
}
