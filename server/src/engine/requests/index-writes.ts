import type { Access, Operation, Span } from '../model';
import type { KeyNames, TableHint } from '../model/call-site';
import { parseSetAssignments } from './expressions';
import { literalText } from '../model/template';
import { entry, type Entry, type Value } from '../model/value';

/**
 * A write that sets a secondary index's partition-key attribute writes that index's
 * partition too: `gsi1pk: "ALL"` in an `Item`, or `SET #b = :b` in an update. Each such
 * index is an item collection of its own, with its own per-partition limits, so it
 * gets an access of its own, judged by the same rules.
 *
 * Index key names come from queries through the index in the same file (`IndexName`
 * with its key condition) or, failing that, from the common naming (`GSI1PK`/`GSI1SK`,
 * `gsi1_pk`, `GSI_1_PK`).
 */
export function indexWrites(
  base: Access,
  /** The request's own operation: `PutItem` or `UpdateItem` also for an item of a batch or transaction. */
  operation: Operation,
  input: Value,
  hint: TableHint | undefined,
  /**
   * The base access's reading of another key object, as `single` reads one, with the
   * index's own key names: the table's would not find an index sort key named otherwise
   * (`createdAt` under a table keyed `pk`/`sk`).
   */
  read: (keyInput: Value, names: KeyNames) => Access,
): Access[] {
  if (base.kind !== 'write' || base.index) return [];
  const written = writtenAttributes(operation, input);
  if (!written) return [];
  const out: Access[] = [];
  const seen = new Set<string>();
  for (const [index, names] of indexesOf(hint, written)) {
    const pk = written.get(names.partition);
    if (!pk || seen.has(index) || names.partition === base.partitionKey?.attribute) continue;
    seen.add(index);
    const sk = names.sort ? written.get(names.sort) : undefined;
    const item: Value = {
      kind: 'object',
      entries: [
        [names.partition, pk.value, pk.pair],
        ...(sk && names.sort ? [[names.sort, sk.value, sk.pair] as Entry] : []),
      ],
      span: base.span,
    };
    const a = read({ kind: 'object', entries: [['Item', item]], span: base.span }, names);
    out.push({ ...a, index, increments: false, itemBytes: null });
  }
  return out;
}

type Written = Map<string, { value: Value; pair?: Span }>;

/** The attribute names a put's item or an update's `SET` writes (what an index may be keyed by). */
export function writtenNames(base: Access, operation: Operation, input: Value): string[] | null {
  if (base.kind !== 'write' || base.index) return null;
  const written = writtenAttributes(operation, input);
  return written ? [...written.keys()] : null;
}

/** The attributes a put's item or an update's `SET` gives values to. */
function writtenAttributes(operation: Operation, input: Value): Written | null {
  const out: Written = new Map();
  if (operation === 'PutItem') {
    const item = entry(input, 'Item');
    if (item?.kind !== 'object') return null;
    for (const [name, value, pair] of item.entries) out.set(name, { value, pair });
    return out;
  }
  if (operation === 'UpdateItem') {
    const ue = entry(input, 'UpdateExpression');
    const text = ue?.kind === 'scalar' ? literalText(ue.template) : null;
    if (text === null) return null;
    const names = entry(input, 'ExpressionAttributeNames');
    const values = entry(input, 'ExpressionAttributeValues');
    for (const { attribute, value } of parseSetAssignments(text)) {
      const alias = attribute.startsWith('#') ? entry(names, attribute) : undefined;
      const name = (alias?.kind === 'scalar' ? literalText(alias.template) : null) ?? attribute;
      const v = entry(values, value);
      if (v) out.set(name, { value: v });
    }
    return out;
  }
  return null;
}

const NAMED_INDEX_KEY = /^(gsi_?(\d+))_?(pk|sk)$/i;

/**
 * The table's known indexes, then those the written attribute names announce. A known
 * index whose sort key is not told (a query through it named only its partition key) takes
 * the sort attribute its partition key's name pairs with, when the item sets it
 * (`gsi1pk` → `gsi1sk`): the same reading as for an index known by the names alone.
 */
function indexesOf(hint: TableHint | undefined, written: Written): Array<[string, KeyNames]> {
  const byNumber = new Map<string, { pk?: string; sk?: string }>();
  for (const name of written.keys()) {
    const m = NAMED_INDEX_KEY.exec(name);
    if (!m) continue;
    const slot = byNumber.get(m[2]) ?? {};
    slot[m[3].toLowerCase() as 'pk' | 'sk'] = name;
    byNumber.set(m[2], slot);
  }
  const paired = (partition: string) => [...byNumber.values()].find((slot) => slot.pk === partition)?.sk;
  const out: Array<[string, KeyNames]> = Object.entries(hint?.indexes ?? {}).map(([index, names]) => {
    const sort = names.sort ?? paired(names.partition);
    return [index, sort ? { ...names, sort } : names];
  });
  for (const [n, slot] of byNumber) {
    if (slot.pk && !out.some(([, k]) => k.partition === slot.pk))
      out.push([`GSI${n}`, { partition: slot.pk, sort: slot.sk }]);
  }
  return out;
}
