import { UpdateContributorInsightsCommand } from '@aws-sdk/client-dynamodb';
import type { HeatClients } from './clients';
import { classify } from './errors';
import type { HeatProblem, InsightsMode } from './types';

/**
 * Contributor Insights being off is the usual first state, not an error: the report
 * still carries CloudWatch's table-wide figures, and the problem says how to turn
 * per-key data on. THROTTLED_KEYS mode is suggested because it only records keys
 * when they throttle, so it costs little to leave on; its pricing is AWS's to state
 * (we quote none).
 */
export function enableCommand(table: string, index: string | null, mode: InsightsMode): string {
  return (
    `aws dynamodb update-contributor-insights --table-name ${table}` +
    (index ? ` --index-name ${index}` : '') +
    ` --contributor-insights-action ENABLE --contributor-insights-mode ${mode}`
  );
}

export function insightsProblem(status: string, table: string, index: string | null): HeatProblem {
  const what = index ? `index "${index}" of table "${table}"` : `table "${table}"`;
  if (status === 'ENABLING') {
    return {
      code: 'insights-enabling',
      message: `Contributor Insights is being enabled on ${what}; per-key data appears a few minutes after it is on.`,
      command: null,
    };
  }
  const mode: InsightsMode = 'THROTTLED_KEYS';
  return {
    code: 'insights-disabled',
    message:
      `Contributor Insights is ${status.toLowerCase()} on ${what}, so no per-key heat is available (CloudWatch's table-wide figures are shown). ` +
      `Enable it to see which keys take the traffic: THROTTLED_KEYS mode records only keys that throttle and is the cheap choice to leave on; ` +
      `ACCESSED_AND_THROTTLED_KEYS also ranks every key by consumed units. See AWS's pricing page for Contributor Insights before enabling.`,
    command: enableCommand(table, index, mode),
    enable: { table, index, mode },
  };
}

/** Switches Contributor Insights on (the "offer to enable"); null on success, else the problem. */
export async function enableInsights(
  clients: HeatClients,
  table: string,
  index: string | null,
  mode: InsightsMode,
): Promise<HeatProblem | null> {
  try {
    await clients.ddb.send(
      new UpdateContributorInsightsCommand({
        TableName: table,
        IndexName: index ?? undefined,
        ContributorInsightsAction: 'ENABLE',
        ContributorInsightsMode: mode,
      }),
    );
    return null;
  } catch (e) {
    return classify(e, {
      action: 'dynamodb:UpdateContributorInsights',
      connection: clients.connection,
      resource: index ? `index "${index}" of table "${table}"` : `table "${table}"`,
    });
  }
}
