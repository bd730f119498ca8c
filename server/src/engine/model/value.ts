import type { Declaration, KeyTemplate, Span } from '.';

/**
 * What a front-end makes of an SDK call's input: the object literals, dicts and
 * keyword arguments of every language become the same tree, so the SDK shapes
 * (`Item`, `Key`, `KeyConditionExpression`, ...) are read once for all languages.
 * Every scalar is a key template: literal text with classified holes.
 */
export type Value =
  /**
   * `hidden`: a spread whose contents are not known (`{ ...input, status: "new" }`,
   * `{**job, "state": "queued"}`): the object holds more than its entries, so an
   * attribute it does not show (the key) may be in what was spread. `echoes`: a
   * `Proxy` whose `get` returns the name asked for (`Keys.pk` is `"pk"`).
   */
  | {
      kind: 'object';
      entries: Entry[];
      span: Span;
      hidden?: Value;
      /**
       * How many entries are written before the spread `hidden` stands for, when some are
       * (`{ pk: {...}, ...attributes }`): what it holds overrides those, not the ones after it.
       */
      hiddenAt?: number;
      echoes?: true;
      made?: Construction;
    }
  | { kind: 'array'; items: Value[]; span: Span }
  /**
   * `span` is where the value is used; `via` the declarations it was reached
   * through (`PK: GLOBAL_BOARD` is used at `GLOBAL_BOARD`, via its `const`);
   * `someOfPaths` that it is one of several values reaching the use (see KeyValue).
   */
  | { kind: 'scalar'; template: KeyTemplate; span: Span; via?: Declaration[]; someOfPaths?: boolean }
  /** boto3 `Key("pk").eq(x) & Key("sk").begins_with(y)`. */
  | { kind: 'condition'; clauses: ConditionClause[]; span: Span };

/**
 * `new Entity(schema, config)` of a DynamoDB library (`model/libraries.ts`): its
 * arguments, each function in them read as what it returns, so a library front-end
 * reads the schema wherever the instance is imported. `file` names where it is
 * written ('' until placed): an importer's placing of the value leaves its positions.
 */
export interface Construction {
  module: string;
  name: string;
  file: string;
  /**
   * JavaScript: the arguments in order. Python: the keyword arguments as one object, then
   * the positional ones; for a class declared on a recorded base (`class Thread(Model)`),
   * its body as one object (nested classes, `Meta`, included; a workspace base's first).
   */
  args: Value[];
  /**
   * A builder's chained calls, in order (`string().key().default("X")`: `key()`, `default("X")`), or
   * the recorded methods called on a construction (`table.getModel("User")`).
   */
  calls?: Array<{ name: string; args: Value[] }>;
  /** A class declared on a recorded base (Python): its name; `name` is the recorded base it derives from. */
  declared?: string;
  /** A call of such a class (`KeyAttribute(hash_key=True)`): its arguments, as `args` holds a recorded class's. */
  call?: Value[];
  /**
   * The recorded class itself, not a construction of it (Python): a module of the workspace
   * passing it on (`from pynamodb.attributes import UnicodeAttribute` in the base module the
   * models import it from). A call of it is the construction.
   */
  reference?: true;
  /**
   * The recorded constructions of its module it is given to, with their other arguments
   * (dynamoose: `new Table("catalog", [Product, Review], options)` holding the model: its name
   * and options), and the package's settings calls of the module (`Table.defaults.set({...})`).
   */
  joins?: Construction[];
  settings?: Value[];
}

/** An object's property: its name, its value, and the whole `name: value` pair when written. */
export type Entry = [name: string, value: Value, pair?: Span];

export interface ConditionClause {
  attribute: string;
  op: string;
  value: Value;
  /** The second operand of `between`. */
  value2?: Value;
  /** The clause as written (`Key("pk").eq(x)`). */
  use?: Span;
}

export function entry(v: Value | undefined, name: string): Value | undefined {
  return entryOf(v, name)?.[1];
}

/** What a destructuring takes of a value: a property (`{ orders } = v`) or an item (`[a, b] = v`). */
export function destructuredPart(v: Value | undefined, key: string | number): Value | null {
  if (typeof key === 'string') return entry(v, key) ?? null;
  return v?.kind === 'array' ? (v.items[key] ?? null) : null;
}

/** The last property of that name (later ones override earlier ones), with its pair. */
export function entryOf(v: Value | undefined, name: string): Entry | undefined {
  if (v?.kind !== 'object') return undefined;
  for (let i = v.entries.length - 1; i >= 0; i--) {
    if (v.entries[i][0] === name) return v.entries[i];
  }
  return undefined;
}

const ATTRIBUTE_VALUE_TAGS = new Set(['S', 'N', 'B', 'BOOL']);

/** `{ S: "x" }` (a low-level AttributeValue) reads as `"x"`. */
export function unwrapAttributeValue(v: Value): Value {
  if (v.kind === 'object' && v.entries.length === 1 && ATTRIBUTE_VALUE_TAGS.has(v.entries[0][0])) {
    return v.entries[0][1];
  }
  return v;
}
