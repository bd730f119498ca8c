/**
 * A PynamoDB model as plain data, read from the class the Python evaluator records
 * (`class Thread(Model)`, `Value.made`): its table (`class Meta: table_name`), its
 * attributes with the name each is stored under (`attr_name=`), which are the hash and
 * range keys, their `default` / `default_for_new`, and its secondary indexes (an
 * attribute holding a `GlobalSecondaryIndex` / `LocalSecondaryIndex` subclass, with its
 * own `Meta.index_name` and key attributes).
 */
import type { Span } from '../../model';
import type { TableHint } from '../../model/call-site';
import { literalText } from '../../model/template';
import { entry, type Entry, type Value } from '../../model/value';

export interface AttributeSchema {
  /** The Python name (`forum_name`). */
  name: string;
  /** The name DynamoDB stores it under: `attr_name`, else the Python name. */
  stored: string;
  hash: boolean;
  range: boolean;
  /** `default=` (or `default_for_new=`): a value, or what its function returns. */
  default?: Value;
  /** `forum_name = UnicodeAttribute(hash_key=True)`, where findings on the schema point. */
  span: Span;
  /** The module declaring it: a base model's, when a subclass inherits it from another module. */
  file: string;
}

export interface IndexSchema {
  /** The model attribute that holds it (`status_index`). */
  name: string;
  /** `Meta.index_name`, else the attribute's name (as PynamoDB names it). */
  indexName: string;
  /** The index class (`StatusIndex`). */
  className: string;
  local: boolean;
  hash: AttributeSchema;
  range: AttributeSchema | null;
}

export interface ModelSchema {
  name: string;
  /** `Meta.table_name`. */
  table: Value | undefined;
  attributes: Map<string, AttributeSchema>;
  hash: AttributeSchema;
  range: AttributeSchema | null;
  indexes: Map<string, IndexSchema>;
  /** Where the model class is written ('' for the file being read). */
  file: string;
  /**
   * No `class Meta`, its own or inherited: a base that only declares attributes for its
   * subclasses. PynamoDB refuses any request of such a model (it has no table).
   */
  abstract: boolean;
}

const text = (v: Value | undefined): string | null => (v?.kind === 'scalar' ? literalText(v.template) : null);

/** A keyword argument of a recorded call, or its positional one. */
function argument(v: Value, name: string, position: number): Value | undefined {
  if (v.kind !== 'object' || !v.made) return undefined;
  // A workspace subclass of an attribute (`KeyAttribute(hash_key=True)`) keeps the call's arguments apart.
  const args = v.made.declared ? (v.made.call ?? []) : v.made.args;
  return entry(args[0], name) ?? args[position + 1];
}

function attribute(e: Entry, file: string): AttributeSchema | null {
  const [name, v, pair] = e;
  // `UnicodeAttribute` itself (not called) is no attribute of the model.
  if (v.kind !== 'object' || v.made?.module !== 'pynamodb.attributes' || v.made.reference) return null;
  const stored = text(argument(v, 'attr_name', 5)) ?? name;
  const flag = (n: string, i: number) => text(argument(v, n, i)) === 'True';
  const def = argument(v, 'default', 3) ?? argument(v, 'default_for_new', 4);
  return {
    name,
    stored,
    hash: flag('hash_key', 0),
    range: flag('range_key', 1),
    ...(def && text(def) !== 'None' ? { default: def } : {}),
    span: pair ?? v.span,
    // An attribute inherited from a base model imported from another module was placed there.
    file: v.made.file || file,
  };
}

/** The body of a class declared on a recorded base, and the base. */
function declared(v: Value | undefined, module: string): { body: Entry[]; base: string; file: string } | null {
  if (v?.kind !== 'object' || !v.made?.declared || v.made.module !== module) return null;
  const body = v.made.args[0];
  return body?.kind === 'object' ? { body: body.entries, base: v.made.name, file: v.made.file } : null;
}

/** The attributes of a class body by Python name (the last declaration of a name wins, as in Python). */
function attributesOf(body: Entry[], file: string): Map<string, AttributeSchema> {
  const out = new Map<string, AttributeSchema>();
  for (const e of body) {
    const a = attribute(e, file);
    if (a) out.set(a.name, a);
  }
  return out;
}

/** The model a value is (a PynamoDB `Model` subclass), or null. */
export function modelSchema(v: Value | undefined): ModelSchema | null {
  const d = declared(v, 'pynamodb.models');
  if (!d || v?.kind !== 'object') return null;
  const attributes = attributesOf(d.body, d.file);
  const all = [...attributes.values()];
  const hash = all.find((a) => a.hash);
  if (!hash) return null;
  const meta = d.body.filter(([n]) => n === 'Meta').pop()?.[1];
  const indexes = new Map<string, IndexSchema>();
  for (const [name, ix] of d.body) {
    const s = indexSchema(name, ix, attributes);
    if (s) indexes.set(name, s);
  }
  return {
    name: v.made!.declared!,
    table: entry(meta, 'table_name'),
    attributes,
    hash,
    range: all.find((a) => a.range) ?? null,
    indexes,
    file: d.file,
    abstract: meta === undefined,
  };
}

function indexSchema(name: string, v: Value, model: Map<string, AttributeSchema>): IndexSchema | null {
  const d = declared(v, 'pynamodb.indexes');
  if (!d || v.kind !== 'object') return null;
  const own = [...attributesOf(d.body, d.file).values()];
  // The index's attribute is the model's: stored under the model's `attr_name` unless the index gives one.
  const stored = (a: AttributeSchema): AttributeSchema => {
    const m = model.get(a.name);
    return m && m.stored !== m.name && a.stored === a.name ? { ...a, stored: m.stored } : a;
  };
  const hash = own.find((a) => a.hash);
  if (!hash) return null;
  const range = own.find((a) => a.range);
  const meta = d.body.filter(([n]) => n === 'Meta').pop()?.[1];
  return {
    name,
    indexName: text(entry(meta, 'index_name')) ?? name,
    className: v.made!.declared!,
    local: d.base === 'LocalSecondaryIndex',
    hash: stored(hash),
    range: range ? stored(range) : null,
  };
}

/** The key names the model declares, as a table hint: the table's keys and each index's. */
export function keySchemaOf(m: ModelSchema): TableHint {
  const names = (hash: AttributeSchema, range: AttributeSchema | null) => ({
    partition: hash.stored,
    ...(range ? { sort: range.stored } : {}),
  });
  return {
    ...names(m.hash, m.range),
    ...(m.indexes.size
      ? {
          indexes: Object.fromEntries([...m.indexes.values()].map((ix) => [ix.indexName, names(ix.hash, ix.range)])),
        }
      : {}),
  };
}

/** The model's file and the Python names of the keys an access addresses (the index's when on one). */
export function modelKeys(m: ModelSchema, index: IndexSchema | null, file: string) {
  const keys = index ?? m;
  return { file: m.file || file, hash: keys.hash.name, range: keys.range?.name ?? null };
}
