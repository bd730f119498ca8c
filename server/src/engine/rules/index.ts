import { subjectOf, type Access, type FileRole, type Finding, type Severity, type ShardCount } from '../model';
import { logicalKeyOf } from '../keys/logical-key';
import { placeLabel } from '../keys/table';
import { classifyAccess, render } from '../model/template';
import { isOneOff } from '../file-roles/role';
import { isPlaceholderKey, placeInContext, roleOfAccess, type ContextScope } from './role-scope';
import { applySupersedes, toFinding } from './finding';
import { shardCountOfAccess, shardSeparatorOf, type KeyGroup } from './group';
import {
  defaultSeverityOf,
  type AccessRule,
  type KeyRule,
  type Rule,
  type RuleInfo,
  type TableInput,
  type TableRule,
} from './rule';
import { constantPartitionKey } from './SL001-constant-partition-key';
import { timeBucketPartitionKey } from './SL002-time-bucket-partition-key';
import { lowCardinalityPartitionKey } from './SL003-low-cardinality-partition-key';
import { counterItem } from './SL004-counter-item';
import { monotonicSortKey } from './SL005-monotonic-sort-key';
import { unshardedReadOfShardedKey } from './SL006-unsharded-read-of-sharded-key';
import { shardRangeMismatch } from './SL007-shard-range-mismatch';
import { scatterGatherPagination } from './SL008-scatter-gather-pagination';
import { hotKeyLive } from './SL009-hot-key-live';
import { shardEvaluatedOnce } from './SL010-shard-evaluated-once';
import { keySchemaMismatch } from './SL011-key-schema-mismatch';
import { hotIndexKey } from './SL012-hot-index-key';
import { contributorInsightsOff } from './SL013-contributor-insights-off';
import { skewedKafkaKey } from './SL020-skewed-kafka-key';
import { tenantShardNoOverride } from './SL021-tenant-shard-no-override';
import { lowCardinalityComposite } from './SL022-low-cardinality-composite';

export type {
  AccessInput,
  AccessRule,
  DeclaredTable,
  KeyRule,
  Report,
  Rule,
  RuleInfo,
  TableInput,
  TableRule,
} from './rule';
export type { KeyGroup } from './group';
export type { ContextFinding, ContextScope } from './role-scope';
export { defaultSeverityOf, docsUrl } from './rule';
export { hotKeyLive } from './SL009-hot-key-live';

/** Every rule, in code order: for docs, SARIF, settings and the runners below. */
export const ALL_RULES: readonly Rule[] = [
  constantPartitionKey,
  timeBucketPartitionKey,
  lowCardinalityPartitionKey,
  counterItem,
  monotonicSortKey,
  unshardedReadOfShardedKey,
  shardRangeMismatch,
  scatterGatherPagination,
  shardEvaluatedOnce,
  keySchemaMismatch,
  hotIndexKey,
  contributorInsightsOff,
  skewedKafkaKey,
  tenantShardNoOverride,
  lowCardinalityComposite,
];

/** Every rule's metadata, the live one (SL009, reported by the heat service) included. */
export const RULE_INFO: readonly RuleInfo[] = [...ALL_RULES, hotKeyLive].sort((a, b) => a.code.localeCompare(b.code));

/** Rules over one access at a time. */
export const ACCESS_RULES: readonly AccessRule[] = ALL_RULES.filter((r): r is AccessRule => r.scope === 'access');

/** Rules over every access of one logical key, across files. */
export const KEY_RULES: readonly KeyRule[] = ALL_RULES.filter((r): r is KeyRule => r.scope === 'key');

/** Rules over a table infrastructure code declares, and the code's requests on it. */
export const TABLE_RULES: readonly TableRule[] = ALL_RULES.filter((r): r is TableRule => r.scope === 'table');

/** The rules whose findings say a key is hot: what makes a table's Contributor Insights worth having (SL013). */
export const HOT_KEY_RULES: ReadonlySet<string> = new Set(['SL001', 'SL002', 'SL003', 'SL004', 'SL010', 'SL012']);

/** Per-rule severity overrides; `off` disables a rule. */
export type SeverityOverrides = Record<string, Severity | 'off'>;

/** One object for "no overrides", so findings memoised under it are found again. */
const NO_OVERRIDES: SeverityOverrides = Object.freeze({});

function severityOf(rule: Rule, overrides: SeverityOverrides): Severity | 'off' {
  return overrides[rule.code] ?? rule.defaultSeverity;
}

/**
 * An access's findings depend only on the access, the shard count its file's writers
 * use for its key, and the severities: an edited document keeps most accesses as the
 * same objects, so their findings are kept too.
 */
const memo = new WeakMap<
  Access,
  {
    overrides: SeverityOverrides;
    shardCount: ShardCount | null;
    separator: string | null;
    role: string;
    found: Finding[];
  }
>();

/** No file context known: every file is application code. */
const NO_SCOPE: ContextScope = { files: {} };

/**
 * Runs every single-access rule over the accesses of one file. `scope` says which
 * contexts (app, test, example, script) are checked and what the analysis found of the
 * files involved: their roles (see `context.ts`).
 */
export function checkAccesses(
  accesses: Access[],
  overrides: SeverityOverrides = NO_OVERRIDES,
  scope: ContextScope = NO_SCOPE,
): Finding[] {
  const counts = shardCountsByKey(accesses);
  const findings: Finding[] = [];
  const checked = scope?.contexts ? scope.contexts.join(',') : '*';
  for (const access of accesses) {
    if (!access.partitionKey || isPlaceholderKey(access)) continue;
    const key = logicalKeyOf(access);
    if (!key) continue;
    const shardCount = counts.get(key.id)?.count ?? null;
    const separator = counts.get(key.id)?.separator ?? null;
    const role = roleOfAccess(access, scope.files);
    const roleId = `${role}:${checked}`;
    const known = memo.get(access);
    if (
      known &&
      known.overrides === overrides &&
      known.role === roleId &&
      sameCount(known.shardCount, shardCount) &&
      known.separator === separator
    ) {
      findings.push(...known.found);
      continue;
    }
    const start = findings.length;
    const input = {
      access,
      key,
      classification: classifyAccess(access),
      keyTemplate: render(access.partitionKey.template),
      tableName: placeLabel(access.table, access.index, access.indexUnknown),
      shardCount,
      shardSeparator: separator,
    };
    const subject = subjectOf(access);
    for (const rule of ACCESS_RULES) {
      if ((rule.subject ?? null) !== subject) continue;
      if (rule.oneOffDropped && isOneOff(role)) continue;
      const severity = severityOf(rule, overrides);
      if (severity === 'off') continue;
      const report = rule.check(input);
      // A message with a default of its own (SL001's cached read) keeps it unless the user set the rule's.
      const own = report && !overrides[rule.code] ? defaultSeverityOf(rule, report.messageId) : severity;
      const found = report ? placeInContext(toFinding(rule, own, report), role, scope) : null;
      if (found) findings.push(found);
    }
    // One access's findings that replace others (SL010 over SL001): settled here, for a single file too.
    findings.splice(start, findings.length - start, ...applySupersedes(findings.slice(start), ACCESS_RULES));
    memo.set(access, { overrides, shardCount, separator, role: roleId, found: findings.slice(start) });
  }
  return findings;
}

/**
 * Runs every cross-file rule over one logical key's accesses. Each finding is placed
 * in the context of the access it sits on (its file's role, as the group carries it).
 */
export function checkGroup(
  group: KeyGroup,
  overrides: SeverityOverrides = {},
  contexts?: readonly FileRole[],
): Finding[] {
  const scope: ContextScope = { contexts, files: group.files };
  const findings: Finding[] = [];
  for (const rule of KEY_RULES) {
    const severity = severityOf(rule, overrides);
    if (severity === 'off') continue;
    for (const report of rule.check(group)) {
      const f = toFinding(rule, severity, report);
      const role = roleOfAccess(f.access, group.files);
      const found = placeInContext(f, role, scope);
      if (found) findings.push(found);
    }
  }
  return findings;
}

/** Drops what the rules say another finding on the same access replaces (SL006 over SL001). */
export function resolveSupersedes(findings: Finding[]): Finding[] {
  return applySupersedes(findings, ALL_RULES);
}

/** The shard count and separator the first sharded writer of each logical key (by id) in these accesses uses. */
function shardCountsByKey(accesses: Access[]): Map<string, { count: ShardCount; separator: string | null }> {
  const out = new Map<string, { count: ShardCount; separator: string | null }>();
  for (const a of accesses) {
    if (a.kind !== 'write') continue;
    const count = shardCountOfAccess(a);
    const key = count ? logicalKeyOf(a) : null;
    if (key && count && !out.has(key.id)) out.set(key.id, { count, separator: shardSeparatorOf(a) });
  }
  return out;
}

/** Shard counts compared by what a message or a fix would say of them. */
function sameCount(a: ShardCount | null, b: ShardCount | null): boolean {
  if (a === b) return true;
  if (!a || !b) return false;
  const d = (c: ShardCount) => (c.declaration ? `${c.declaration.file}:${JSON.stringify(c.declaration.span)}` : '');
  return a.expression === b.expression && a.name === b.name && a.value === b.value && d(a) === d(b);
}

/**
 * Runs the table rules of one phase over one declared table. A report on an access is
 * placed in the context of its code like any other rule's; one on the definition (`at`)
 * sits in the infrastructure file, as application code.
 */
export function checkTable(
  phase: TableRule['phase'],
  input: TableInput,
  overrides: SeverityOverrides = NO_OVERRIDES,
  scope: ContextScope = NO_SCOPE,
): Finding[] {
  const out: Finding[] = [];
  for (const rule of TABLE_RULES) {
    if (rule.phase !== phase || overrides[rule.code] === 'off') continue;
    for (const report of rule.check(input)) {
      const severity = (overrides[rule.code] as Severity | undefined) ?? defaultSeverityOf(rule, report.messageId);
      const f = toFinding(rule, severity, report);
      if (report.at) {
        if (scope.contexts && !scope.contexts.includes('app')) continue;
        out.push({
          ...f,
          file: report.at.file,
          span: report.at.span,
          related: report.related ?? [],
          fixes: [],
          context: 'app',
        });
        continue;
      }
      const found = placeInContext(f, roleOfAccess(f.access, scope.files), scope);
      if (found) out.push(found);
    }
  }
  return out;
}
