import type { Finding } from '../model';
import { declaredLabel } from './declared';
import type { DeclaredTable, TableRule } from './rule';

/** How each format turns Contributor Insights on in the mode that records throttled keys only. */
function howTo(d: DeclaredTable): string {
  switch (d.format) {
    case 'cdk':
      // In the stack's own language: a Python stack passes keyword arguments.
      return d.table.source.file.endsWith('.py')
        ? '`contributor_insights_specification=dynamodb.ContributorInsightsSpecification(enabled=True, mode=dynamodb.ContributorInsightsMode.THROTTLED_KEYS)`'
        : '`contributorInsightsSpecification: { enabled: true, mode: ContributorInsightsMode.THROTTLED_KEYS }`';
    case 'sst':
      return 'an `aws.dynamodb.ContributorInsights` resource naming the table (`tableName: table.name`, v3), or `cdk: { table: { contributorInsightsEnabled: true } }` (v2)';
    case 'terraform':
      return 'an `aws_dynamodb_contributor_insights` resource naming the table, with `mode = "THROTTLED_KEYS"`';
    default:
      return '`ContributorInsightsSpecification: { Enabled: true, Mode: THROTTLED_KEYS }`';
  }
}

/** At most this many hot-key findings are named as related places. */
const RELATED = 5;

/**
 * A table with hot-key findings whose definition leaves CloudWatch Contributor Insights
 * off: when the key throttles in production, nothing names it. In `THROTTLED_KEYS` mode
 * Contributor Insights records only throttled requests, so it costs little while nothing
 * throttles, and it is what live heat (SL009) reads. Reported on the table's definition.
 */
export const contributorInsightsOff: TableRule = {
  scope: 'table',
  phase: 'findings',
  code: 'SL013',
  category: 'contributor-insights-off',
  defaultSeverity: 'info',
  summary: 'A table with hot-key findings whose definition leaves Contributor Insights off.',
  fixKinds: [],
  messages: { insightsOff: 'a table with hot-key findings and Contributor Insights off' },
  check({ declared, hot, where }) {
    const t = declared.table;
    if (t.contributorInsights === true || hot.length === 0) return [];
    const first = hot[0];
    const n = hot.length;
    const off = t.contributorInsights === false ? 'turns Contributor Insights off' : 'leaves Contributor Insights off';
    return [
      {
        access: first.access,
        // The definition may sit in a file the template includes (`${file(...)}`): where it is written.
        // Its first line, not the whole definition: a squiggle under fourteen lines hides them.
        at: t.header ? { file: t.source.file, span: t.header } : t.source,
        messageId: 'insightsOff',
        message:
          `${capitalised(declaredLabel(declared))} has ${n} hot-key finding${n === 1 ? '' : 's'} ` +
          `(${first.rule} at ${where(first)}${n > 1 ? ', ...' : ''}) and its definition ${off}: when a key throttles, ` +
          `nothing names it. Turn it on in THROTTLED_KEYS mode, ${howTo(declared)}: it records only throttled ` +
          `requests, so it costs little while nothing throttles, and live heat (SL009) reads it.`,
        related: hot.slice(0, RELATED).map((f: Finding) => ({
          file: f.file,
          span: f.span,
          message: `${f.rule}: a hot key on this table`,
        })),
      },
    ];
  },
};

function capitalised(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
