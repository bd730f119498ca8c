// UpdateContributorInsights, DescribeContributorInsights and
// ListContributorInsights, which dynalite does not have.

import { ruleName, type InsightsEntry, type Mode } from '../../insights/registry';
import type { OpContext } from '../context';
import type { Attrs } from '../dynalite-engine';
import { resourceNotFound, serializationError, validationError } from '../errors';
import type { TableInfo } from '../table-catalog';

const MODES: Mode[] = ['ACCESSED_AND_THROTTLED_KEYS', 'THROTTLED_KEYS'];

function optString(raw: Attrs, name: string): string | undefined {
  const v = raw[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string')
    throw serializationError(`Unexpected value type in payload for ${name}: expected a string`);
  return v;
}

function tableName(raw: Attrs): string {
  const name = optString(raw, 'TableName');
  if (name === undefined)
    throw validationError("The parameter 'TableName' is required but was not present in the request");
  if (name.length < 1 || name.length > 1024) {
    throw validationError(
      `1 validation error detected: Value '${name}' at 'tableName' failed to satisfy constraint: Member must have length between 1 and 1024`,
    );
  }
  return name;
}

async function resolve(ctx: OpContext, raw: Attrs): Promise<{ table: TableInfo; index?: string }> {
  const name = tableName(raw);
  const index = optString(raw, 'IndexName');
  const table = await ctx.catalog.get(name);
  if (!table) throw resourceNotFound(`Requested resource not found: Table: ${name} not found`);
  if (index !== undefined && !table.indexes.has(index)) {
    throw resourceNotFound(`Requested resource not found: Index: ${index} not found for table ${name}`);
  }
  return { table, index };
}

function describe(table: string, index: string | undefined, e: InsightsEntry | undefined): Attrs {
  const out: Attrs = { TableName: table };
  if (index !== undefined) out.IndexName = index;
  if (!e) {
    out.ContributorInsightsStatus = 'DISABLED';
    out.ContributorInsightsRuleList = [];
    return out;
  }
  const live = e.status === 'ENABLED' || e.status === 'ENABLING';
  out.ContributorInsightsRuleList = live ? [...e.rules.keys()].map((k) => ruleName(e, k)) : [];
  out.ContributorInsightsStatus = e.status;
  out.LastUpdateDateTime = e.lastUpdate.getTime() / 1000;
  if (live) out.ContributorInsightsMode = e.mode;
  return out;
}

export async function updateContributorInsights(ctx: OpContext, raw: Attrs): Promise<Attrs> {
  const action = optString(raw, 'ContributorInsightsAction');
  if (action !== 'ENABLE' && action !== 'DISABLE') {
    throw validationError(
      `1 validation error detected: Value '${action ?? 'null'}' at 'contributorInsightsAction' failed to satisfy constraint: ` +
        'Member must satisfy enum value set: [ENABLE, DISABLE]',
    );
  }
  const mode = (optString(raw, 'ContributorInsightsMode') ?? 'ACCESSED_AND_THROTTLED_KEYS') as Mode;
  if (!MODES.includes(mode)) {
    throw validationError(
      `1 validation error detected: Value '${mode}' at 'contributorInsightsMode' failed to satisfy constraint: ` +
        `Member must satisfy enum value set: [${MODES.join(', ')}]`,
    );
  }
  const { table, index } = await resolve(ctx, raw);
  const keys = index === undefined ? table : table.indexes.get(index)!;
  const e =
    action === 'ENABLE'
      ? ctx.insights.enable(table.table, index, mode, keys.hashKey, keys.rangeKey)
      : ctx.insights.disable(table.table, index);
  const out: Attrs = { TableName: table.table };
  if (index !== undefined) out.IndexName = index;
  out.ContributorInsightsStatus = e?.status ?? 'DISABLED';
  if (action === 'ENABLE') out.ContributorInsightsMode = mode;
  return out;
}

export async function describeContributorInsights(ctx: OpContext, raw: Attrs): Promise<Attrs> {
  const { table, index } = await resolve(ctx, raw);
  return describe(table.table, index, ctx.insights.get(table.table, index));
}

export async function listContributorInsights(ctx: OpContext, raw: Attrs): Promise<Attrs> {
  const max = raw.MaxResults ?? 100;
  if (typeof max !== 'number' || !Number.isInteger(max)) throw serializationError('MaxResults must be an integer');
  if (max < 0 || max > 100) {
    throw validationError(
      `1 validation error detected: Value '${max}' at 'maxResults' failed to satisfy constraint: Member must have value less than or equal to 100`,
    );
  }
  const token = optString(raw, 'NextToken');
  const start = token === undefined ? 0 : Number.parseInt(Buffer.from(token, 'base64').toString('utf8'), 10);
  if (!Number.isInteger(start) || start < 0) throw validationError('Invalid NextToken');

  let summaries: Attrs[];
  if (raw.TableName !== undefined) {
    // One table: the table and each of its global indexes, enabled or not.
    const { table } = await resolve(ctx, { TableName: raw.TableName });
    const names = [
      undefined,
      ...[...table.indexes.values()].filter((ix) => isGlobal(table, ix.index!)).map((ix) => ix.index),
    ];
    summaries = names.map((ix) => summary(table.table, ix, ctx.insights.get(table.table, ix)));
  } else {
    summaries = ctx.insights
      .all()
      .filter((e) => e.status !== 'DISABLED')
      .map((e) => summary(e.table, e.index, e));
  }
  const page = summaries.slice(start, start + (max || 100));
  const out: Attrs = { ContributorInsightsSummaries: page };
  if (start + page.length < summaries.length)
    out.NextToken = Buffer.from(String(start + page.length)).toString('base64');
  return out;
}

function isGlobal(table: TableInfo, index: string): boolean {
  return ((table.raw.GlobalSecondaryIndexes ?? []) as Attrs[]).some((g) => g.IndexName === index);
}

function summary(table: string, index: string | undefined, e: InsightsEntry | undefined): Attrs {
  const s: Attrs = { TableName: table, ContributorInsightsStatus: e?.status ?? 'DISABLED' };
  if (index !== undefined) s.IndexName = index;
  if (e && e.status !== 'DISABLED') s.ContributorInsightsMode = e.mode;
  return s;
}
