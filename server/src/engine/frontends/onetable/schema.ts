/**
 * A OneTable model as plain data, read from the recorded `new Table({ name, schema })`
 * with `getModel('User')` called on it (`Value.made`). The schema object (often a
 * module of its own) declares the indexes by the attributes they are keyed on
 * (`indexes: { primary: { hash: 'pk', sort: 'sk' }, gs1: { hash: 'gs1pk' } }`) and each
 * model's fields: where a field is stored (`map`, else its name), its value template
 * (`value: 'user#${id}'`), and what fills it on a create (`generate: 'ulid'`, `default`).
 */
import type { KeyTemplate, SourceRange, Span } from '../../model';
import { literalText } from '../../model/template';
import { entry, entryOf, type Value } from '../../model/value';
import { computedShard, generatedShard, type CountLookup, type ReadAt } from './shard-fields';

export interface IndexSchema {
  /** `primary` for the table's own key. */
  name: string;
  hash: string;
  sort: string | null;
}

export interface FieldSchema {
  name: string;
  /** The attribute it is stored as (`map: 'PK'`, else its name). */
  field: string;
  /** `value: 'user#${id}'`: the stored value made of the other fields, when the call gives none. */
  template?: string;
  /** `generate: 'ulid' | 'uuid'` (or `true`): a random value on a create. */
  generate?: boolean;
  /** A write shard the field holds (`shard-fields.ts`): drawn on a create, or computed on every call. */
  shard?: { template: KeyTemplate; on: 'put' | 'every' };
  /** The field's `type` as written (`String`, `Number`, `'string'`). */
  type: string | null;
  /** `default:` on a create that leaves the field out. */
  default?: Value;
  span: Span;
}

export interface ModelSchema {
  name: string;
  /** Where `getModel('User')` names it, or the model's declaration in the schema. */
  nameSpan: Span;
  /** The file of the schema object, where its field spans are. */
  schemaFile: string;
  tableName: Value | undefined;
  primary: IndexSchema;
  indexes: IndexSchema[];
  fields: Map<string, FieldSchema>;
  /** The field holding the model's name (`_type` unless the table says otherwise). */
  typeField: string;
  /** The model's fields object in the schema, and the options object the table is constructed with. */
  fieldsAt: SourceRange;
  tableAt: SourceRange;
}

const text = (v: Value | undefined): string | null => (v?.kind === 'scalar' ? literalText(v.template) : null);

/** The model a value is (`table.getModel('User')`), or null. */
export function modelSchema(v: Value | undefined, at: ReadAt): ModelSchema | null {
  const m = v?.kind === 'object' ? v.made : undefined;
  if (m?.module !== 'dynamodb-onetable' || m.name !== 'Table') return null;
  const get = m.calls?.find((c) => c.name === 'getModel');
  const name = text(get?.args[0]);
  return name !== null && get ? modelOfTable(v, name, at, get.args[0].span) : null;
}

/** The model `name` of a recorded `new Table({ schema })` (`table.create('User', ...)`), or null. */
export function modelOfTable(v: Value | undefined, name: string, at: ReadAt, nameSpan?: Span): ModelSchema | null {
  const m = v?.kind === 'object' ? v.made : undefined;
  if (m?.module !== 'dynamodb-onetable' || m.name !== 'Table') return null;
  const options = m.args[0];
  const schema = entry(options, 'schema');
  const model = entryOf(entry(schema, 'models'), name);
  const indexes = indexesOf(entry(schema, 'indexes'));
  const primary = indexes.find((i) => i.name === 'primary');
  if (!model || !primary) return null;
  const schemaFile = fileOf(schema) ?? m.file;
  // A schema imported from another module carries the spans of its use (`schema: Schema`):
  // its fields are placed by where their values were written in the schema's file.
  const placed = schemaFile && schemaFile !== m.file ? schemaFile : null;
  const fields = fieldsOf(model[1], entry(options, 'value'), at.lookup(schemaFile || at.file), placed);
  if (!fields) return null;
  return {
    name,
    nameSpan: nameSpan ?? model[2] ?? model[1].span,
    schemaFile,
    tableName: entry(options, 'name'),
    primary,
    indexes: indexes.filter((i) => i !== primary),
    fields,
    typeField: text(entry(entry(schema, 'params'), 'typeField')) ?? text(entry(options, 'typeField')) ?? '_type',
    fieldsAt: { file: schemaFile || at.file, span: model[1].span },
    tableAt: { file: m.file || at.file, span: options.span },
  };
}

function indexesOf(v: Value | undefined): IndexSchema[] {
  if (v?.kind !== 'object') return [];
  return v.entries.flatMap(([name, ix]) => {
    const hash = text(entry(ix, 'hash'));
    // A local index (`type: 'local'`) shares the table's partition key.
    return hash === null ? [] : [{ name, hash, sort: text(entry(ix, 'sort')) }];
  });
}

function fieldsOf(
  model: Value,
  callback: Value | undefined,
  lookup: CountLookup,
  placed: string | null,
): Map<string, FieldSchema> | null {
  if (model.kind !== 'object') return null;
  const out = new Map<string, FieldSchema>();
  for (const [name, o, pair] of model.entries) {
    const map = text(entry(o, 'map'));
    const generate = entry(o, 'generate');
    const f: FieldSchema = {
      name,
      // `map: 'data.name'` packs the field into a map attribute: not a key.
      field: map && !map.includes('.') ? map : name,
      span: (placed && writtenIn(o, placed)) || pair || o.span,
      type: typeOf(entry(o, 'type')),
    };
    const value = text(entry(o, 'value'));
    if (value !== null && value !== 'true') f.template = value;
    const computed = value === 'true' ? computedShard(callback) : null;
    const drawn = generatedShard(generate, lookup);
    if (computed) f.shard = { template: computed, on: 'every' };
    else if (drawn) f.shard = { template: drawn, on: 'put' };
    // `uuid: true` is OneTable 1's spelling of `generate: 'uuid'`.
    if ((generate && text(generate) !== 'false') || text(entry(o, 'uuid')) === 'true') f.generate = true;
    const d = entry(o, 'default');
    if (d) f.default = d;
    out.set(name, f);
  }
  return out;
}

/** `String` (the constructor, read as its name) or `'string'`. */
function typeOf(v: Value | undefined): string | null {
  if (v?.kind !== 'scalar') return null;
  const part = v.template.parts.length === 1 ? v.template.parts[0] : null;
  if (part && 'literal' in part) return part.literal;
  return part && 'hole' in part ? part.hole.source : null;
}

/**
 * Where a value was written in `file`: from the first to the last origin there of the
 * scalars in it (a field `{ type: String, value: 'user#${id}' }` from `String` to the
 * template), or null when none of its parts says.
 */
function writtenIn(v: Value, file: string): Span | null {
  const spans: Span[] = [];
  const visit = (x: Value, depth: number): void => {
    if (depth > 6) return;
    if (x.kind === 'scalar') {
      for (const p of x.template.parts) if (p.origin?.file === file) spans.push(p.origin.span);
    } else if (x.kind === 'object') for (const e of x.entries) visit(e[1], depth + 1);
    else if (x.kind === 'array') for (const i of x.items) visit(i, depth + 1);
  };
  visit(v, 0);
  if (!spans.length) return null;
  const before = (a: Span, b: Span) =>
    a.startLine < b.startLine || (a.startLine === b.startLine && a.startColumn < b.startColumn);
  const after = (a: Span, b: Span) => a.endLine > b.endLine || (a.endLine === b.endLine && a.endColumn > b.endColumn);
  const first = spans.reduce((a, b) => (before(b, a) ? b : a));
  const last = spans.reduce((a, b) => (after(b, a) ? b : a));
  return {
    startLine: first.startLine,
    startColumn: first.startColumn,
    endLine: last.endLine,
    endColumn: last.endColumn,
  };
}

/** The file a schema object was read from: an imported schema's parts name their module. */
function fileOf(v: Value | undefined, depth = 0): string | null {
  if (!v || depth > 6) return null;
  if (v.kind === 'scalar') return v.template.parts.find((p) => p.origin?.file)?.origin?.file ?? null;
  const children = v.kind === 'object' ? v.entries.map((e) => e[1]) : v.kind === 'array' ? v.items : [];
  for (const c of children) {
    const f = fileOf(c, depth + 1);
    if (f) return f;
  }
  return null;
}
