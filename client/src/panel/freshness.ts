/**
 * When the panel's data goes stale: the language server's heat status says a refresh
 * finished (the poller's tick, the refresh command) or the connection, window or tables
 * changed. The panel then gets its keys again and reads its key's heat afresh, so it never
 * waits for the Refresh button. No `vscode` import: tested in plain Node.
 */
import type { HeatStatus, WorkspaceStatus } from '../../../protocol/src/lsp';

/** Why the pages are told to refresh; the view-title button sends none (a forced read). */
export type RefreshReason = 'visible' | 'connection' | 'poll';

const connectionOf = (s: HeatStatus) =>
  JSON.stringify([
    s.state === 'ok' || s.state === 'problem' ? 'on' : s.state,
    s.label,
    s.window,
    s.tables,
    s.unmapped ?? [],
  ]);

/**
 * The reason a new status makes the panel stale, or null. `prev` is the last settled
 * status (not `refreshing`), null before the first.
 */
export function staleReason(prev: HeatStatus | null, next: HeatStatus): RefreshReason | null {
  if (next.state === 'refreshing') return null;
  if (prev && connectionOf(prev) !== connectionOf(next)) return 'connection';
  if (next.lastRefresh && next.lastRefresh !== prev?.lastRefresh) return prev ? 'poll' : 'connection';
  return null;
}

/** Follows the statuses as they arrive; `onStale` hears each reason. */
export function statusFollower(onStale: (reason: RefreshReason) => void): (s: HeatStatus) => void {
  let settled: HeatStatus | null = null;
  return (s) => {
    const reason = staleReason(settled, s);
    if (s.state !== 'refreshing') settled = s;
    if (reason) onStale(reason);
  };
}

/**
 * Whether a `shardlens/status` ends an index (`wasIndexing` is what the last one said): the
 * keys are then complete, and a page that asked during the index gets them again.
 */
export function keysReady(wasIndexing: boolean, next: WorkspaceStatus | null): boolean {
  return wasIndexing && next !== null && !next.indexing;
}
