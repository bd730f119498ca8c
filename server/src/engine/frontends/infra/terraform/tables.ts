/**
 * `aws_dynamodb_table` resources: name, key schema with the `attribute` blocks' types,
 * indexes, billing and capacity; Contributor Insights from an
 * `aws_dynamodb_contributor_insights` resource of the module naming the table.
 */
import type { SourceRange } from '../../../model';
import type { IndexDefinition, InfraTable, KeyAttribute } from '../../../model/entry-point';
import type { Block } from './hcl';
import { referenced, textOf, type Resource, type TfModule } from './module';

export function tableOf(r: Resource, mod: TfModule): InfraTable {
  const b = r.block;
  const file = r.file;
  const text = (k: string, from: Block = b) => textOf(from.attributes.get(k), mod)?.text ?? null;
  const number = (k: string) => {
    const t = text(k);
    return t !== null && /^\d+$/.test(t) ? Number(t) : null;
  };
  const types = new Map<string, string>();
  for (const a of b.blocks.filter((x) => x.type === 'attribute')) {
    const name = text('name', a);
    if (name) types.set(name, text('type', a) ?? '');
  }
  // An attribute name not known before deploy (`{$var.hash_key}`, `{$each.value.hash_key}`) names no key.
  const key = (name: string | null): KeyAttribute | null =>
    name && !name.includes('{$') ? { name, type: types.get(name) || null } : null;
  const partitionKey = key(text('hash_key'));
  const indexes: IndexDefinition[] = [];
  let unread = 0;
  const sources: Record<string, SourceRange> = {};
  for (const i of b.blocks) {
    if (i.type !== 'global_secondary_index' && i.type !== 'local_secondary_index') continue;
    const name = text('name', i);
    const local = i.type === 'local_secondary_index';
    // A local index shares the table's partition key and names only its sort key.
    const pk = local ? partitionKey : key(text('hash_key', i));
    if (name && pk) {
      indexes.push({ name, kind: local ? 'local' : 'global', partitionKey: pk, sortKey: key(text('range_key', i)) });
      sources[name] = { file, span: i.span };
    } else unread++;
  }
  // `dynamic "global_secondary_index"` makes indexes from a collection: not read.
  if (b.blocks.some((x) => x.type === 'dynamic')) unread++;
  const billing = text('billing_mode');
  const read = number('read_capacity');
  const write = number('write_capacity');
  const name = textOf(b.attributes.get('name'), mod);
  return {
    logicalId: r.address,
    tableName: name?.text ?? null,
    partitionKey,
    sortKey: key(text('range_key')),
    indexes,
    ...(unread ? { unreadIndexes: unread } : {}),
    ...(indexes.length ? { indexSources: sources } : {}),
    // Terraform's default is PROVISIONED: said so only when capacities are written.
    billingMode:
      billing === 'PAY_PER_REQUEST' || billing === 'PROVISIONED'
        ? billing
        : read !== null || write !== null
          ? 'PROVISIONED'
          : null,
    capacity: read !== null || write !== null ? { read, write } : null,
    contributorInsights: insightsFor(r, name?.text ?? null, mod),
    source: { file, span: b.span },
  };
}

function insightsFor(table: Resource, name: string | null, mod: TfModule): boolean | null {
  for (const r of mod.resources.values()) {
    if (r.block.labels[0] !== 'aws_dynamodb_contributor_insights' || r.address.startsWith('data.')) continue;
    const named = r.block.attributes.get('table_name');
    const target = referenced(named, mod);
    if (target?.resource === table || (name !== null && textOf(named, mod)?.text === name)) {
      const mode = textOf(r.block.attributes.get('mode'), mod)?.text;
      return mode === undefined || !/DISABLED/i.test(mode);
    }
  }
  return null;
}
