/**
 * What the panel's status line says while Contributor Insights is being enabled and after
 * the server's `shardlens.heat.enableInsights` answers. No `vscode` import: tested in plain Node.
 */
import { Commands, type EnableInsightsArgs, type EnableInsightsResult } from '../../../protocol/src/commands';

/** The `workspace/executeCommand` params that ask the server to enable it (its heat service does). */
export function enableParams(a: EnableInsightsArgs): { command: string; arguments: [EnableInsightsArgs] } {
  return { command: Commands.enableInsights, arguments: [{ table: a.table, index: a.index, mode: a.mode }] };
}

export interface Notice {
  level: 'info' | 'error';
  message: string;
}

const where = (a: EnableInsightsArgs) => (a.index ? `index ${a.index} of ${a.table}` : a.table);

export function enablingNotice(a: EnableInsightsArgs): Notice {
  return { level: 'info', message: `Enabling Contributor Insights (${a.mode}) on ${where(a)}…` };
}

export function enableNotice(a: EnableInsightsArgs, r: EnableInsightsResult | null): Notice {
  if (r?.ok)
    return {
      level: 'info',
      message: `Contributor Insights (${a.mode}) is being enabled on ${where(a)}: per-key data appears a few minutes after it is on.`,
    };
  return {
    level: 'error',
    message: `Contributor Insights was not enabled on ${where(a)}: ${r?.message ?? 'the language server gave no answer.'}`,
  };
}
