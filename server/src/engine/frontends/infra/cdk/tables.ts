/**
 * DynamoDB tables as the CDK declares them: `Table` and `TableV2` (`partitionKey`,
 * `sortKey`, `tableName`, indexes in the props or added with `addGlobalSecondaryIndex` /
 * `addLocalSecondaryIndex`, billing, capacity, Contributor Insights), in the CDK's
 * defaults where the code says nothing: a `Table` is provisioned at 5 read and 5 write
 * units, a `TableV2` on demand.
 */
import type { CdkValue } from '../../../model/cdk';
import type { IndexDefinition, InfraTable, KeyAttribute } from '../../../model/entry-point';
import type { SourceRange } from '../../../model';
import { templateText } from './environment';
import {
  boolOf,
  constructId,
  staticCall,
  itemsOf,
  lastName,
  numberOf,
  prop,
  textOf,
  type CallValue,
  type NewValue,
} from './values';

const TYPES: Record<string, string> = { STRING: 'S', NUMBER: 'N', BINARY: 'B' };

/** `{ name: 'pk', type: AttributeType.STRING }`, Python `Attribute(name="pk", type=...)`. */
function attribute(v: CdkValue | null): KeyAttribute | null {
  const name = textOf(prop(v, 'name'));
  if (!name) return null;
  const type = lastName(prop(v, 'type'));
  return { name, type: type ? (TYPES[type] ?? null) : null };
}

function indexOf(v: CdkValue | null, kind: 'global' | 'local', table: KeyAttribute | null): IndexDefinition | null {
  const name = textOf(prop(v, 'indexName'));
  // A local index shares the table's partition key.
  const partitionKey = kind === 'local' ? table : attribute(prop(v, 'partitionKey'));
  if (!name || !partitionKey) return null;
  return { name, kind, partitionKey, sortKey: attribute(prop(v, 'sortKey')) };
}

/** `Capacity.fixed(10)` → 10, `Capacity.autoscaled({ minCapacity: 5 })` → 5 (what it never goes below). */
function capacityUnits(v: CdkValue | null): number | null {
  const fixed = staticCall(v, 'Capacity', 'fixed');
  if (fixed) return numberOf(fixed.args[0]);
  const scaled = staticCall(v, 'Capacity', 'autoscaled');
  if (scaled) return numberOf(prop(scaled, 'minCapacity')) ?? 1;
  return numberOf(v);
}

export function tableOf(n: NewValue, calls: readonly CallValue[], file: string): InfraTable {
  const props = n.props;
  const v2 = n.className === 'TableV2';
  const partitionKey = attribute(prop(props, 'partitionKey'));
  const indexes: IndexDefinition[] = [];
  let unread = 0;
  const sources: Record<string, SourceRange> = {};
  const add = (i: IndexDefinition | null, at: CdkValue) => {
    if (!i) return void unread++;
    indexes.push(i);
    sources[i.name] = { file, span: at.span };
  };
  for (const i of itemsOf(prop(props, 'globalSecondaryIndexes'))) add(indexOf(i, 'global', partitionKey), i);
  for (const i of itemsOf(prop(props, 'localSecondaryIndexes'))) add(indexOf(i, 'local', partitionKey), i);
  for (const c of calls) {
    if (c.receiver?.kind !== 'new' || c.receiver.at !== n.at) continue;
    if (c.name === 'addGlobalSecondaryIndex') add(indexOf(c.args[0] ?? c.props, 'global', partitionKey), c);
    if (c.name === 'addLocalSecondaryIndex') add(indexOf(c.args[0] ?? c.props, 'local', partitionKey), c);
  }
  const nameValue = prop(props, 'tableName');
  const name = textOf(nameValue) ?? (nameValue ? templateText(nameValue) : null);
  return {
    logicalId: constructId(n) ?? n.qualified,
    tableName: name,
    partitionKey,
    sortKey: attribute(prop(props, 'sortKey')),
    indexes,
    ...(unread ? { unreadIndexes: unread } : {}),
    ...(indexes.length ? { indexSources: sources } : {}),
    ...(v2 ? billingV2(prop(props, 'billing')) : billingV1(props)),
    contributorInsights:
      boolOf(prop(props, 'contributorInsightsEnabled')) ??
      boolOf(prop(props, 'contributorInsights')) ??
      boolOf(prop(prop(props, 'contributorInsightsSpecification'), 'enabled')),
    source: { file, span: n.span },
  };
}

type Billing = Pick<InfraTable, 'billingMode' | 'capacity'>;

/** `Table`: `billingMode: BillingMode.PAY_PER_REQUEST`, else provisioned with `readCapacity`/`writeCapacity` (5 each). */
function billingV1(props: CdkValue | null): Billing {
  if (lastName(prop(props, 'billingMode')) === 'PAY_PER_REQUEST')
    return { billingMode: 'PAY_PER_REQUEST', capacity: null };
  const read = prop(props, 'readCapacity');
  const write = prop(props, 'writeCapacity');
  return {
    billingMode: 'PROVISIONED',
    capacity: { read: read ? numberOf(read) : 5, write: write ? numberOf(write) : 5 },
  };
}

/** `TableV2`: `billing: Billing.onDemand()` (the default) or `Billing.provisioned({ readCapacity, writeCapacity })`. */
function billingV2(billing: CdkValue | null): Billing {
  const provisioned = staticCall(billing, 'Billing', 'provisioned');
  if (provisioned)
    return {
      billingMode: 'PROVISIONED',
      capacity: {
        read: capacityUnits(prop(provisioned, 'readCapacity')),
        write: capacityUnits(prop(provisioned, 'writeCapacity')),
      },
    };
  if (billing && !staticCall(billing, 'Billing', 'onDemand')) return { billingMode: null, capacity: null };
  return { billingMode: 'PAY_PER_REQUEST', capacity: null };
}
