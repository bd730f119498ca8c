import type { Access } from '../model';
import type { KeyAttribute } from '../model/entry-point';
import { isAlias } from '../requests/request-keys';
import { declaredLabel, schemaText } from './declared';
import type { TableReport, TableRule } from './rule';

/**
 * A request whose key attributes are not the key schema infrastructure code declares for
 * its table (or the index it names): DynamoDB refuses it with a ValidationException, on
 * every call, so the path it is on has never worked against the deployed table. Judged
 * only where the table is known for certain (see `declared-tables.ts`).
 */
export const keySchemaMismatch: TableRule = {
  scope: 'table',
  phase: 'accesses',
  code: 'SL011',
  category: 'key-schema-mismatch',
  defaultSeverity: 'error',
  summary:
    "A request's key attributes do not match the key schema infrastructure code declares for its table or index.",
  fixKinds: [],
  messages: {
    keyNotInSchema: 'a Key names an attribute that is not a key attribute of the table',
    keyMissing: 'a Key leaves out a key attribute of the table',
    queryNotOnKey: 'a key condition on an attribute that is neither the key of the table nor of the index',
    unknownIndex: 'an IndexName the table does not define',
  },
  check({ declared, accesses, where }) {
    const out: TableReport[] = [];
    const t = declared.table;
    if (!t.partitionKey) return out;
    const label = `${declaredLabel(declared)} (${where(t.source)})`;
    for (const a of accesses) {
      if (a.operation === 'ExecuteStatement' || a.library || a.guessed) continue;
      if (a.read && a.operation === 'Query') {
        // An IndexName computed or read from a variable no infrastructure code sets to a name:
        // which key schema the condition must match is not known.
        if (a.indexUnknown) continue;
        // An index an unread file names may be defined there (a stage's broken copy of the template).
        const mayBeElsewhere = !!t.unreadIndexes || !!(a.index && declared.indexesNamedUnread?.has(a.index));
        const r = queryReport(a, declared.table.indexes, t.partitionKey, t.sortKey, label, mayBeElsewhere);
        if (r) out.push(r);
      } else if (a.keyNames && !a.index) {
        const r = itemReport(a, a.keyNames, t.partitionKey, t.sortKey, label);
        if (r) out.push(r);
      }
    }
    return out;
  },
};

const REJECTED =
  'DynamoDB rejects it on every call (ValidationException: the provided key element does not match the schema)';

function itemReport(
  a: Access,
  names: string[],
  pk: KeyAttribute,
  sk: KeyAttribute | null,
  label: string,
): TableReport | null {
  const schema = sk ? [pk.name, sk.name] : [pk.name];
  const extra = names.filter((n) => !schema.includes(n));
  const missing = schema.filter((n) => !names.includes(n));
  if (extra.length === 0 && missing.length === 0) return null;
  const op = a.call.callee;
  const keyed = `${label} is keyed by ${schemaText(pk, sk)}`;
  if (extra.length)
    return {
      access: a,
      messageId: 'keyNotInSchema',
      message:
        `This ${op} names ${quoted(extra)} in its Key, but ${keyed}: ${REJECTED}. ` +
        `Name exactly the table's key attributes in Key.`,
      span: a.partitionKey?.use ?? a.span,
    };
  return {
    access: a,
    messageId: 'keyMissing',
    message:
      `This ${op}'s Key leaves out ${quoted(missing)}, but ${keyed}: ${REJECTED}. ` +
      `A Key names the partition key and, when the table has one, the sort key.`,
    span: a.partitionKey?.use ?? a.span,
  };
}

function queryReport(
  a: Access,
  indexes: ReadonlyArray<{ name: string; partitionKey: KeyAttribute; sortKey: KeyAttribute | null }>,
  pk: KeyAttribute,
  sk: KeyAttribute | null,
  label: string,
  indexMayBeElsewhere: boolean,
): TableReport | null {
  let keys = { pk, sk, what: label };
  if (a.index) {
    const def = indexes.find((i) => i.name === a.index);
    if (!def) {
      // An index the reader could not read may be this one.
      if (indexMayBeElsewhere) return null;
      const has = indexes.length ? `its indexes are ${quoted(indexes.map((i) => i.name))}` : 'it defines no index';
      return {
        access: a,
        messageId: 'unknownIndex',
        message:
          `This Query names IndexName "${a.index}", but ${label} does not define it (${has}): ` +
          `DynamoDB rejects it on every call (ValidationException: the table does not have the specified index). ` +
          `Name one of the table's indexes, or add the index to the table's definition.`,
        span: a.read?.written?.fields.IndexName?.span ?? a.span,
      };
    }
    keys = { pk: def.partitionKey, sk: def.sortKey, what: `index "${def.name}" of ${label}` };
  }
  const attributes = [a.partitionKey?.attribute, a.sortCondition?.attribute].filter(
    (n): n is string => !!n && !isAlias(n),
  );
  if (attributes.length === 0) return null;
  const allowed = keys.sk ? [keys.pk.name, keys.sk.name] : [keys.pk.name];
  const extra = attributes.filter((n) => !allowed.includes(n));
  const noPartition = !attributes.includes(keys.pk.name) && !!a.partitionKey && !isAlias(a.partitionKey.attribute);
  if (extra.length === 0 && !noPartition) return null;
  const onWhat = extra.length ? quoted(extra) : quoted(attributes);
  const atIndex = a.index ? '' : ' (a condition on an index key needs IndexName)';
  return {
    access: a,
    messageId: 'queryNotOnKey',
    message:
      `This Query's key condition is on ${onWhat}, but ${keys.what} is keyed by ${schemaText(keys.pk, keys.sk)}${atIndex}: ` +
      `DynamoDB rejects it on every call (ValidationException: query condition missed key schema element). ` +
      `Query by the partition key with \`=\`, and by the sort key if at all.`,
  };
}

function quoted(names: readonly string[]): string {
  return names.map((n) => `\`${n}\``).join(', ');
}
