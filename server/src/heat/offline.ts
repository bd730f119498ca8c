/**
 * What of live heat makes no AWS call (the texts, the live findings, the JSON forms, the
 * poller, the table names): what the language server loads at start. What calls AWS is
 * in aws.ts, a bundle of its own the server loads when live heat is first used
 * (lsp/load-heat.ts): the AWS SDK was a third of the server bundle and ~50 ms of every
 * start, in workspaces that never connect.
 */
export type * from './types';
export { newHeatCache, type HeatCache } from './heat-cache';
export type { KeySource } from './link';
export { isLoopback } from './loopback';
export { startPolling } from './backoff';
export { heatForAccess, liveLine, codeLensTitle, throttlesFor } from './live-text';
export { hotKeyLiveFindings } from './hot-key-live';
export { withLiveUse } from './live-use';
export { toJsonProblem } from './json';
export { resolveTable, unmappedProblem } from './unmapped';
