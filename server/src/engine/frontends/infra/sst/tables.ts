/**
 * DynamoDB tables as SST declares them. SST v3 (Pulumi underneath):
 * `new sst.aws.Dynamo("Votes", { fields: { pk: "string" }, primaryIndex: { hashKey: "pk",
 * rangeKey: "sk" }, globalIndexes: { byStatus: { hashKey: "status" } }, localIndexes: {
 * byDate: { rangeKey: "date" } } })`. SST v2 (the CDK underneath, from `sst/constructs`):
 * `new Table(stack, "Votes", { fields, primaryIndex: { partitionKey, sortKey },
 * globalIndexes: { byStatus: { partitionKey } } })`. Both bill on demand and leave
 * Contributor Insights off unless the underlying resource is changed (`transform.table` in
 * v3, `cdk.table` in v2). The physical name is SST's (`<app>-<stage>-VotesTable-<hash>`), so
 * code names the table by its id: `Resource.Votes.name`, `Table.Votes.tableName`.
 */
import type { CdkValue } from '../../../model/cdk';
import type { IndexDefinition, InfraTable, KeyAttribute } from '../../../model/entry-point';
import type { SourceRange } from '../../../model';
import { templateText } from '../cdk/environment';
import { boolOf, lastName, prop, propsOf, textOf, type NewValue } from '../cdk/values';

const TYPES: Record<string, string> = { string: 'S', number: 'N', binary: 'B' };

/** The key names each SST version writes: v3 says hash and range, v2 partition and sort. */
interface KeyWords {
  partition: string;
  sort: string;
}
const V3: KeyWords = { partition: 'hashKey', sort: 'rangeKey' };
const V2: KeyWords = { partition: 'partitionKey', sort: 'sortKey' };

/** A table of SST v3 (`sst.aws.Dynamo`, id first) or v2 (`Table` of `sst/constructs`, id after the stack). */
export function sstTableOf(n: NewValue, id: string, v3: boolean, file: string): InfraTable {
  const words = v3 ? V3 : V2;
  const props = n.props;
  // `"string"`, or v1's `TableFieldType.STRING`.
  const fields = new Map(
    propsOf(prop(props, 'fields')).map((e) => [e.key, (textOf(e.value) ?? lastName(e.value))?.toLowerCase()]),
  );
  const attribute = (v: CdkValue | null): KeyAttribute | null => {
    const name = textOf(v);
    if (!name) return null;
    const type = fields.get(name);
    return { name, type: type ? (TYPES[type] ?? null) : null };
  };
  const primary = prop(props, 'primaryIndex');
  const partitionKey = attribute(prop(primary, words.partition));
  const indexes: IndexDefinition[] = [];
  const sources: Record<string, SourceRange> = {};
  let unread = 0;
  for (const [kind, key] of [
    ['global', 'globalIndexes'],
    ['local', 'localIndexes'],
  ] as const)
    for (const { key: name, value } of propsOf(prop(props, key))) {
      // A local index shares the table's partition key.
      const partition = kind === 'local' ? partitionKey : attribute(prop(value, words.partition));
      if (!partition) {
        unread++;
        continue;
      }
      indexes.push({ name, kind, partitionKey: partition, sortKey: attribute(prop(value, words.sort)) });
      sources[name] = { file, span: value.span };
    }
  // v3 `transform: { table: { name: "..." } }` names the table SST would have named.
  const named = prop(prop(prop(props, 'transform'), 'table'), 'name');
  return {
    logicalId: id,
    tableName: textOf(named) ?? (named ? templateText(named) : null),
    partitionKey,
    sortKey: attribute(prop(primary, words.sort)),
    indexes,
    ...(unread ? { unreadIndexes: unread } : {}),
    ...(indexes.length ? { indexSources: sources } : {}),
    billingMode: 'PAY_PER_REQUEST',
    capacity: null,
    contributorInsights: contributorInsightsOf(props, v3),
    source: { file, span: n.span },
  };
}

/** What the underlying table is changed to say about Contributor Insights, or null when nothing is. */
function contributorInsightsOf(props: CdkValue | null, v3: boolean): boolean | null {
  if (v3) return null;
  const table = prop(prop(props, 'cdk'), 'table');
  return (
    boolOf(prop(table, 'contributorInsightsEnabled')) ??
    boolOf(prop(prop(table, 'contributorInsightsSpecification'), 'enabled'))
  );
}
