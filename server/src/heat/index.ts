/**
 * The heat service: live Contributor Insights and CloudWatch data for a table or
 * index, linked to the workspace's logical keys. Used by the CLI (`shardlens heat`,
 * `check --heat`) and the language server (hover, code lens, diagnostics, the panel).
 * See docs/heat.md.
 */
export type * from './types';
export { getHeat, type HeatCallOptions } from './service';
export { newHeatCache, type HeatCache } from './heat-cache';
export { linkReport, pickMatch, type KeySource } from './link';
export { fetchLive, ruleKindOf, MAX_CONTRIBUTORS } from './fetch';
export { classify, isThrottling } from './errors';
export { withBackoff, backoffDelay, nextPollDelay, startPolling } from './backoff';
export { enableInsights, enableCommand } from './insights';
export {
  heatForKey,
  heatForAccess,
  clockTime,
  liveLine,
  codeLensTitle,
  evidenceText,
  windowText,
  opFigures,
  throttlesFor,
  type OpKind,
} from './live-text';
export { hotKeysLive, hotKeyLiveFindings, throttleText, PARTITION_CEILING_UNITS } from './hot-key-live';
export { liveUseOf, withLiveUse } from './live-use';
export { toJsonHeat, toJsonProblem } from './json';
export { answerHeatRequest } from './request';
export { WINDOWS, WINDOW_SECONDS, isWindow, periodFor } from './window';
export { makeClients } from './clients';
export { isLoopback } from './loopback';
export { isPlaceholderTable, resolveTable, unmappedProblem } from './unmapped';
export { listTables } from './list-tables';
