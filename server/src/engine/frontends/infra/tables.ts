/**
 * DynamoDB tables as CloudFormation declares them: `AWS::DynamoDB::Table`,
 * `AWS::DynamoDB::GlobalTable` and SAM's `AWS::Serverless::SimpleTable` (key schema,
 * indexes, billing, capacity, Contributor Insights).
 */
import type { SourceRange } from '../../model';
import type { IndexDefinition, InfraTable, KeyAttribute } from '../../model/entry-point';
import { at, entriesOf, get, itemsOf, scalarNumber, scalarText, type TNode } from './tree';
import { textWithHoles } from './values';

export const TABLE_TYPES = new Set([
  'AWS::DynamoDB::Table',
  'AWS::DynamoDB::GlobalTable',
  'AWS::Serverless::SimpleTable',
]);

/** The logical ids of the table resources of a `Resources` map. */
export function tableIds(resources: TNode | undefined): Set<string> {
  const out = new Set<string>();
  for (const r of entriesOf(resources)) if (TABLE_TYPES.has(scalarText(get(r.value, 'Type')) ?? '')) out.add(r.key);
  return out;
}

/**
 * One table resource. `name`: how the table's name text is read (the Serverless reader
 * resolves its `${self:...}` first).
 */
export function tableOf(
  logicalId: string,
  resource: TNode,
  file: string,
  tables: ReadonlySet<string>,
  name: (n: TNode | undefined) => string | null = (n) => textWithHoles(n, tables),
): InfraTable {
  const type = scalarText(get(resource, 'Type'));
  const props = get(resource, 'Properties');
  if (type === 'AWS::Serverless::SimpleTable') return simpleTable(logicalId, resource, props, file, name);
  const types = attributeTypes(get(props, 'AttributeDefinitions'));
  const keys = keySchema(get(props, 'KeySchema'), types);
  const indexes: IndexDefinition[] = [];
  let unread = 0;
  const sources: Record<string, SourceRange> = {};
  for (const [list, kind] of [
    ['GlobalSecondaryIndexes', 'global'],
    ['LocalSecondaryIndexes', 'local'],
  ] as const) {
    for (const i of itemsOf(get(props, list))) {
      const indexName = scalarText(get(i, 'IndexName'));
      const k = keySchema(get(i, 'KeySchema'), types);
      if (indexName && k.partitionKey) {
        indexes.push({ name: indexName, kind, partitionKey: k.partitionKey, sortKey: k.sortKey });
        sources[indexName] = { file, span: i.span };
      } else unread++;
    }
    // A list written as an intrinsic (`!If [HasIndex, [...], !Ref AWS::NoValue]`) is not a list of indexes.
    const v = get(props, list);
    if (v && v.kind !== 'seq') unread++;
  }
  const billing = scalarText(get(props, 'BillingMode'));
  const throughput = get(props, 'ProvisionedThroughput');
  const globalWrite = at(
    props,
    'WriteProvisionedThroughputSettings',
    'WriteCapacityAutoScalingSettings',
    'MinCapacity',
  );
  const capacity =
    throughput || globalWrite
      ? {
          read: scalarNumber(get(throughput, 'ReadCapacityUnits')),
          write: scalarNumber(get(throughput, 'WriteCapacityUnits')) ?? scalarNumber(globalWrite),
        }
      : null;
  return {
    logicalId,
    tableName: name(get(props, 'TableName')),
    ...keys,
    indexes,
    ...(unread ? { unreadIndexes: unread } : {}),
    ...(indexes.length ? { indexSources: sources } : {}),
    billingMode:
      billing === 'PAY_PER_REQUEST' || billing === 'PROVISIONED'
        ? billing
        : type === 'AWS::DynamoDB::Table' || type === 'AWS::DynamoDB::GlobalTable'
          ? // The service's default when the template says nothing.
            'PROVISIONED'
          : null,
    capacity,
    contributorInsights: insights(props),
    source: { file, span: resource.span },
  };
}

/** SAM's simple table: one `PrimaryKey` (`Type: String`), on-demand unless it states throughput. */
function simpleTable(
  logicalId: string,
  resource: TNode,
  props: TNode | undefined,
  file: string,
  name: (n: TNode | undefined) => string | null,
): InfraTable {
  const pk = get(props, 'PrimaryKey');
  const pkName = scalarText(get(pk, 'Name'));
  const pkType = scalarText(get(pk, 'Type'));
  const throughput = get(props, 'ProvisionedThroughput');
  return {
    logicalId,
    tableName: name(get(props, 'TableName')),
    // SAM's default primary key is `id` of type String.
    partitionKey: pk ? (pkName ? { name: pkName, type: shortType(pkType) } : null) : { name: 'id', type: 'S' },
    sortKey: null,
    indexes: [],
    billingMode: throughput ? 'PROVISIONED' : 'PAY_PER_REQUEST',
    capacity: throughput
      ? {
          read: scalarNumber(get(throughput, 'ReadCapacityUnits')),
          write: scalarNumber(get(throughput, 'WriteCapacityUnits')),
        }
      : null,
    contributorInsights: null,
    source: { file, span: resource.span },
  };
}

function shortType(t: string | null): string | null {
  if (!t) return null;
  return ({ String: 'S', Number: 'N', Binary: 'B' } as Record<string, string>)[t] ?? t;
}

function attributeTypes(defs: TNode | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const d of itemsOf(defs)) {
    const name = scalarText(get(d, 'AttributeName'));
    const type = scalarText(get(d, 'AttributeType'));
    if (name && type) out.set(name, type);
  }
  return out;
}

function keySchema(
  schema: TNode | undefined,
  types: Map<string, string>,
): { partitionKey: KeyAttribute | null; sortKey: KeyAttribute | null } {
  let partitionKey: KeyAttribute | null = null;
  let sortKey: KeyAttribute | null = null;
  for (const k of itemsOf(schema)) {
    const name = scalarText(get(k, 'AttributeName'));
    const role = scalarText(get(k, 'KeyType'));
    if (!name) continue;
    const attr = { name, type: types.get(name) ?? null };
    if (role === 'HASH') partitionKey = attr;
    else if (role === 'RANGE') sortKey = attr;
  }
  return { partitionKey, sortKey };
}

/** `ContributorInsightsSpecification: { Enabled: true }`, on the table or (global tables) on a replica. */
function insights(props: TNode | undefined): boolean | null {
  const own = get(get(props, 'ContributorInsightsSpecification'), 'Enabled');
  const replicas = itemsOf(get(props, 'Replicas')).map((r) => at(r, 'ContributorInsightsSpecification', 'Enabled'));
  const values = [own, ...replicas].filter((v): v is TNode => v !== undefined).map(scalarText);
  if (values.length === 0) return null;
  return values.some((v) => v === 'true');
}
