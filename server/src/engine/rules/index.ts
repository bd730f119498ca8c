import type { Access, Finding, Severity } from '../model';
import { classifyAccess, render } from '../template';
import type { Rule } from './rule';
import { constantPartitionKey } from './SL001-constant-partition-key';
import { timeBucketPartitionKey } from './SL002-time-bucket-partition-key';
import { lowCardinalityPartitionKey } from './SL003-low-cardinality-partition-key';
import { counterItem } from './SL004-counter-item';
import { monotonicSortKey } from './SL005-monotonic-sort-key';
import { unshardedReadOfShardedKey } from './SL006-unsharded-read-of-sharded-key';
import { shardRangeMismatch } from './SL007-shard-range-mismatch';
import { scatterGatherPagination } from './SL008-scatter-gather-pagination';
import type { GroupRule } from './group';
import { tableLabel } from './table-label';

export type { Rule } from './rule';
export type { GroupRule, KeyGroup } from './group';
export { docsUrl } from './rule';

export const RULES: Rule[] = [
  constantPartitionKey,
  timeBucketPartitionKey,
  lowCardinalityPartitionKey,
  counterItem,
  monotonicSortKey,
];

/** Rules over every access of one logical key, across files. */
export const GROUP_RULES: GroupRule[] = [unshardedReadOfShardedKey, shardRangeMismatch, scatterGatherPagination];

/** Every rule's code, category, default severity and summary, for docs, SARIF and settings. */
export const ALL_RULES: Array<Pick<Rule, 'code' | 'category' | 'defaultSeverity' | 'summary'>> = [
  ...RULES,
  ...GROUP_RULES,
];

/** Per-rule severity overrides; `off` disables a rule. */
export type SeverityOverrides = Record<string, Severity | 'off'>;

/** Runs every single-access rule over the accesses of one file. */
export function checkAccesses(accesses: Access[], overrides: SeverityOverrides = {}): Finding[] {
  const findings: Finding[] = [];
  for (const access of accesses) {
    if (!access.partitionKey) continue;
    const input = {
      access,
      classification: classifyAccess(access),
      keyTemplate: render(access.partitionKey.template),
      tableName: tableLabel(access),
    };
    for (const rule of RULES) {
      const severity = overrides[rule.code] ?? rule.defaultSeverity;
      if (severity === 'off') continue;
      const message = rule.check(input);
      if (!message) continue;
      const pk = access.partitionKey;
      const span =
        rule.code === 'SL005' && access.sortKey?.inline ? access.sortKey.span : pk.inline ? pk.span : access.span;
      findings.push({ file: access.file, span, rule: rule.code, category: rule.category, severity, message, access });
    }
  }
  return findings;
}
