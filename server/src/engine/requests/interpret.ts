import type { CallSite, KeyNames, KeySchemaHints, TableHint } from '../model/call-site';
import { estimateBytes, increments, readShape } from './request-fields';
import { isAlias, keyGapOf, keysOf, keysOfQuery } from './request-keys';
import type { Access, Operation, TableRef } from '../model';
import { parsePartiql, type PartiqlValue } from './partiql';
import { deployTimeName, envVariableIn, envVariableOf } from './env';
import { indexWrites, writtenNames } from './index-writes';
import { tableKey } from '../keys/table';
import { placeOrigins } from '../frontends/evaluation';
import { literal, literalText } from '../model/template';
import { entry, type Value } from '../model/value';

/**
 * The input field a request must carry to be a DynamoDB call: where the receiver is
 * unknown, this tells `table.put(...)` from `map.get(k)` or `cache.put(k, v)`. A query
 * may instead use the legacy `KeyConditions` (see `isRequest`).
 */
export const REQUIRED_FIELD: Record<Operation, string> = {
  PutItem: 'Item',
  GetItem: 'Key',
  UpdateItem: 'Key',
  DeleteItem: 'Key',
  Query: 'KeyConditionExpression',
  BatchWriteItem: 'RequestItems',
  BatchGetItem: 'RequestItems',
  TransactWriteItems: 'TransactItems',
  TransactGetItems: 'TransactItems',
  ExecuteStatement: 'Statement',
};

/** Whether an input carries the field that makes it this operation's request. */
export function isRequest(operation: Operation, input: Value | undefined): boolean {
  return !!entry(input, REQUIRED_FIELD[operation]) || (operation === 'Query' && !!entry(input, 'KeyConditions'));
}

/** The site's table: the one its construction injected (`CallSite.injected`), else what the request names. */
function siteTable(site: CallSite): TableRef {
  return site.injected ? site.table : tableOf(site.input, site.table);
}

function tableOf(input: Value | undefined, fallback: TableRef): TableRef {
  const v = entry(input, 'TableName');
  return v ? tableRefOf(v) : fallback;
}

/** A table-name value as a table: a literal (maybe through constants), an environment variable, or unknown. */
export function tableRefOf(v: Value | null | undefined): TableRef {
  if (v?.kind !== 'scalar') return { kind: 'unknown', span: v?.span };
  const source =
    v.template.parts.length === 1 && 'hole' in v.template.parts[0] ? v.template.parts[0].hole.source : null;
  const via = v.via ?? [];
  const text = literalText(v.template);
  const part = v.template.parts.length === 1 ? v.template.parts[0] : null;
  const unlessEnv = part && 'literal' in part ? part.unlessEnv : undefined;
  if (text !== null) return { kind: 'literal', name: text, span: v.span, via, ...(unlessEnv ? { unlessEnv } : {}) };
  const env = envVariableOf(v.template);
  if (env) return { kind: 'env', name: env, span: v.span, via };
  const deployed = deployTimeName(v.template);
  if (deployed) return { kind: 'template', name: deployed, span: v.span, via };
  return { kind: 'unknown', span: v.span, ...(source ? { source } : {}) };
}

/**
 * A table named by a key of `RequestItems`: its text, or a computed key (`[expr]`) that is an
 * environment variable's read (`[process.env.USERS_TABLE]`, `[os.environ["USERS_TABLE"]]`).
 */
function requestItemsTable(name: string): TableRef {
  if (!name.startsWith('[')) return { kind: 'literal', name };
  const env = envVariableIn(name.slice(1, -1));
  return env ? { kind: 'env', name: env } : { kind: 'unknown' };
}

const READS: Operation[] = ['GetItem', 'Query', 'BatchGetItem', 'TransactGetItems'];

function accessOfRequest(
  site: CallSite,
  operation: Operation,
  input: Value,
  table: TableRef,
  hints: KeySchemaHints,
  /** The key names to read by instead of the table's: an index's, for the partition an item writes there. */
  names?: KeyNames,
): Access {
  const hint = names ?? hints.get(tableKey(table));
  const keys =
    operation === 'Query'
      ? keysOfQuery(input, site.span, keyNamesOf(hint, entry(input, 'IndexName')))
      : operation === 'PutItem'
        ? keysOf(entry(input, 'Item'), true, hint, site.span)
        : keysOf(entry(input, 'Key'), false, hint, site.span);
  const index = entry(input, 'IndexName');
  const indexName = index?.kind === 'scalar' ? literalText(index.template) : null;
  const indexUnknown = index && indexName === null ? unknownIndexText(index) : null;
  const keyNames = operation === 'Query' || operation === 'PutItem' ? null : namesOfKey(entry(input, 'Key'));
  const read = operation === 'Query' ? readShape(input, site.paginator) : null;
  return {
    file: site.file,
    language: site.language,
    operation: site.operation,
    kind: READS.includes(operation) ? 'read' : 'write',
    sdk: site.sdk,
    table,
    index: indexName,
    ...(indexUnknown ? { indexUnknown } : {}),
    span: site.span,
    partitionKey: keys.pk,
    sortKey: keys.sk,
    sortCondition: keys.condition,
    read,
    call: site.call,
    increments: operation === 'UpdateItem' && increments(input),
    paginated: site.paginated || !!read?.exclusiveStartKey,
    limited: read?.limit != null,
    itemBytes: operation === 'PutItem' ? estimateBytes(entry(input, 'Item')) : null,
    ...(keys.pk ? {} : { keyGap: keyGapOf(operation, input) }),
    ...(keyNames ? { keyNames } : {}),
    ...(site.through ? { through: site.through } : {}),
    ...(site.cachedBy && READS.includes(operation) ? { cachedBy: site.cachedBy } : {}),
    ...(site.injected ? { injected: site.injected } : {}),
    ...(site.guessed ? { guessed: true } : {}),
    ...(site.library ? { library: site.library } : {}),
    ...(site.operationUnread ? { operationUnread: site.operationUnread } : {}),
  };
}

/**
 * An `IndexName` the code computes: `$X` when it reads an environment variable (which
 * infrastructure code may set to the index's name, `env-tables.ts`), else its source.
 */
function unknownIndexText(v: Value): string {
  if (v.kind !== 'scalar') return v.kind;
  const env = envVariableOf(v.template);
  if (env) return `$${env}`;
  const hole = v.template.parts.find((p) => 'hole' in p);
  return hole && 'hole' in hole ? hole.hole.source : 'a computed name';
}

/** Every attribute name of a `Key` object, when each is read: none hidden in a spread, none computed. */
function namesOfKey(key: Value | undefined): string[] | null {
  if (key?.kind !== 'object' || key.hidden || key.entries.length === 0) return null;
  const names = key.entries.map(([k]) => k);
  return names.some(isAlias) ? null : names;
}

/** The key names the workspace tells for the table, or for the index a query names. */
function keyNamesOf(hint: TableHint | undefined, index: Value | undefined): KeyNames | undefined {
  if (!index) return hint?.partition ? { partition: hint.partition, sort: hint.sort } : undefined;
  const name = index.kind === 'scalar' ? literalText(index.template) : null;
  return name ? hint?.indexes?.[name] : undefined;
}

function itemsOf(v: Value | undefined): Value[] {
  return v?.kind === 'array' ? v.items : v ? [v] : [];
}

/**
 * Reads one call site's input as one access per item collection it touches, with
 * every origin and declaration made in this file naming it.
 */
export function accessesOfCallSite(site: CallSite, hints: KeySchemaHints = new Map()): Access[] {
  return placeOrigins(accessesUnplaced(site, hints), site.file);
}

function accessesUnplaced(site: CallSite, hints: KeySchemaHints): Access[] {
  const input = site.input;
  const table = siteTable(site);
  switch (site.operation) {
    case 'BatchWriteItem':
    case 'BatchGetItem': {
      const requestItems = entry(input, 'RequestItems');
      if (requestItems?.kind !== 'object') return [];
      return requestItems.entries.flatMap(([name, requests]) => {
        const t = requestItemsTable(name);
        if (site.operation === 'BatchGetItem') {
          return itemsOf(entry(requests, 'Keys')).map((key) =>
            accessOfRequest(site, 'GetItem', { kind: 'object', entries: [['Key', key]], span: key.span }, t, hints),
          );
        }
        return itemsOf(requests).flatMap((r) => {
          const put = entry(r, 'PutRequest');
          const del = entry(r, 'DeleteRequest');
          if (put)
            return withIndexWrites(site, accessOfRequest(site, 'PutItem', put, t, hints), 'PutItem', put, t, hints);
          if (del) return [accessOfRequest(site, 'DeleteItem', del, t, hints)];
          return [];
        });
      });
    }
    case 'TransactWriteItems':
    case 'TransactGetItems': {
      const ops: Array<[string, Operation]> = [
        ['Put', 'PutItem'],
        ['Update', 'UpdateItem'],
        ['Delete', 'DeleteItem'],
        ['ConditionCheck', 'GetItem'],
        ['Get', 'GetItem'],
      ];
      return itemsOf(entry(input, 'TransactItems')).flatMap((item) => {
        for (const [field, op] of ops) {
          const inner = entry(item, field);
          if (inner) {
            const t = tableOf(inner, table);
            const a: Access = {
              ...accessOfRequest(site, op, inner, t, hints),
              kind: site.operation === 'TransactGetItems' ? 'read' : 'write',
              increments: op === 'UpdateItem' && increments(inner),
            };
            return withIndexWrites(site, a, op, inner, t, hints);
          }
        }
        return [];
      });
    }
    case 'ExecuteStatement':
      return [partiqlAccess(site, input, table, hints)];
    default:
      return withIndexWrites(
        site,
        accessOfRequest(site, site.operation, input, table, hints),
        site.operation,
        input,
        table,
        hints,
      );
  }
}

/**
 * A write with the attribute names its item sets and, after it, one access per index
 * partition those attributes write (index-writes.ts). `operation` is the request's own:
 * an item of a batch or a transaction is a put or an update as much as a lone one is.
 */
function withIndexWrites(
  site: CallSite,
  base: Access,
  operation: Operation,
  input: Value,
  table: TableRef,
  hints: KeySchemaHints,
): Access[] {
  const written = writtenNames(base, operation, input);
  if (written) base.written = written;
  return [
    base,
    ...indexWrites(base, operation, input, hints.get(tableKey(table)), (key, names) =>
      accessOfRequest(site, 'PutItem', key, table, hints, names),
    ),
  ];
}

const PARTIQL_OPERATION = { insert: 'PutItem', select: 'GetItem', update: 'UpdateItem', delete: 'DeleteItem' } as const;

/**
 * A PartiQL statement read as the item operation it performs: its key values are
 * literals in the statement or the `Parameters` at the `?` positions.
 */
function partiqlAccess(site: CallSite, input: Value, fallback: TableRef, hints: KeySchemaHints): Access {
  const statement = entry(input, 'Statement');
  const text = statement?.kind === 'scalar' ? literalText(statement.template) : null;
  const parsed = text === null ? null : parsePartiql(text);
  if (!statement || !parsed)
    return accessOfRequest(site, 'GetItem', { kind: 'object', entries: [], span: site.span }, fallback, hints);
  const params = entry(input, 'Parameters');
  const valueOf = (v: PartiqlValue): Value =>
    'literal' in v
      ? { kind: 'scalar', template: literal(v.literal), span: statement.span }
      : params?.kind === 'array' && params.items[v.parameter]
        ? params.items[v.parameter]
        : { kind: 'scalar', template: { parts: [{ hole: { kind: 'unknown', source: '?' } }] }, span: statement.span };
  const key: Value = {
    kind: 'object',
    entries: parsed.attributes.map(([a, v]) => [a, valueOf(v)]),
    span: statement.span,
  };
  const operation = PARTIQL_OPERATION[parsed.kind];
  const field = operation === 'PutItem' ? 'Item' : 'Key';
  const table: TableRef = { kind: 'literal', name: parsed.table.split('.')[0] };
  return accessOfRequest(site, operation, { kind: 'object', entries: [[field, key]], span: site.span }, table, hints);
}

/**
 * Learns each table's key attribute names from calls that name only keys, and its
 * indexes' key names from queries through them (the first hint of each kind wins).
 */
export function learnKeySchemas(sites: CallSite[], hintOf = schemaHintOf): KeySchemaHints {
  const hints: KeySchemaHints = new Map();
  for (const s of sites) {
    const h = hintOf(s);
    if (!h) continue;
    const known = hints.get(h[0]) ?? {};
    hints.set(h[0], {
      partition: known.partition ?? h[1].partition,
      sort: known.partition ? known.sort : h[1].sort,
      ...(known.indexes || h[1].indexes ? { indexes: { ...h[1].indexes, ...known.indexes } } : {}),
    });
  }
  return hints;
}

/**
 * What one call site says of its table's key names: a `Key` or a key condition names
 * only keys; a query through an index names that index's keys.
 */
export function schemaHintOf(s: CallSite): [string, TableHint] | null {
  if (s.keySchema) return [tableKey(tableOf(s.input, s.table)), s.keySchema];
  const namesOnlyKeys = ['GetItem', 'UpdateItem', 'DeleteItem', 'Query'].includes(s.operation);
  if (!namesOnlyKeys) return null;
  const a = accessOfRequest(s, s.operation, s.input, siteTable(s), new Map());
  if (!a.partitionKey || a.table.kind === 'unknown') return null;
  // An alias or computed name left unread (`#pk`, `[Keys.pk]`) names nothing.
  if (isAlias(a.partitionKey.attribute)) return null;
  const sort = a.sortKey && !isAlias(a.sortKey.attribute) ? a.sortKey.attribute : undefined;
  const names: KeyNames = { partition: a.partitionKey.attribute, sort };
  return [tableKey(a.table), a.index ? { indexes: { [a.index]: names } } : names];
}

const ONE_TABLE = new Set<Operation>(['PutItem', 'GetItem', 'UpdateItem', 'DeleteItem', 'Query']);

/**
 * The one table whose key-schema hints reading this site can use (`tableKey` form), or
 * null when it may use several (batches, transactions, PartiQL): what interpreting it
 * depends on, so an edit to another table's calls need not read it again.
 */
export function hintTableOf(site: CallSite): string | null {
  return ONE_TABLE.has(site.operation) ? tableKey(siteTable(site)) : null;
}
