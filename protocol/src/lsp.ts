import { NotificationType, RequestType, RequestType0 } from 'vscode-languageserver-protocol';
import type { HeatWindow, JsonHeatProblem } from './heat';
import { plural, severityCounts } from './plural';
import { percentUnderstood } from './report';

/**
 * The custom messages between the ShardLens client and language server: one
 * definition both sides import (method names `shardlens/...`). The live-heat and
 * key requests (`shardlens/heat`, `shardlens/keys`) are in ./heat.ts.
 */
export interface WorkspaceStatus {
  /** True while the workspace is being indexed. */
  indexing: boolean;
  files: number;
  errors: number;
  warnings: number;
  infos: number;
  /**
   * DynamoDB calls seen (each request of a batch or transact call counts) and how many
   * of them were understood (partition key resolved, table known), as `shardlens check`
   * counts them in `coverage`; the rest have no findings because they were not read.
   */
  calls: number;
  resolved: number;
}

/**
 * The status tooltip's coverage line: a count of findings means little without how much
 * of the code was read (`92% of 140 DynamoDB calls understood: ...`).
 */
export function coverageSummary(s: Pick<WorkspaceStatus, 'calls' | 'resolved'>): string {
  if (s.calls === 0) return 'No DynamoDB calls found.';
  const seen = plural(s.calls, 'DynamoDB call');
  if (s.resolved === s.calls) return `All ${seen} understood.`;
  const not = s.calls - s.resolved;
  return (
    `${percentUnderstood(s.resolved, s.calls)}% of ${seen} understood: ${not} could not be read, so no ` +
    'finding there says nothing (hover one to see why; `shardlens check --stats` lists them).'
  );
}

export interface CheckWorkspaceResult extends WorkspaceStatus {
  /** Files skipped, with the reason (too large, binary, ...). */
  skipped: Array<{ file: string; reason: string }>;
  durationMs: number;
}

/** `ShardLens checked 12 files in 0.4 s: 1 error, 1 warning, 0 info (2 files skipped).` */
export function checkSummary(r: CheckWorkspaceResult): string {
  const seconds = (r.durationMs / 1000).toLocaleString('en-US', { maximumFractionDigits: 1 });
  const skipped = r.skipped.length ? ` (${plural(r.skipped.length, 'file')} skipped)` : '';
  return `ShardLens checked ${plural(r.files, 'file')} in ${seconds} s: ${severityCounts(r)}${skipped}.`;
}

/** Server → client after each change of the workspace's findings. */
export const StatusNotification = new NotificationType<WorkspaceStatus>('shardlens/status');
/** Client → server: index the workspace again now. */
export const CheckWorkspaceRequest = new RequestType0<CheckWorkspaceResult, void>('shardlens/checkWorkspace');

/**
 * `initializationOptions` of the `initialize` request. Live heat calls AWS, so the
 * server makes no AWS call unless the client says the workspace is trusted: an
 * absent `workspaceTrusted` counts as untrusted (other editors pass `true` to opt in).
 */
export interface InitializationOptions {
  workspaceTrusted?: boolean;
  /**
   * The client implements `shardlens.fix.ask` (protocol/src/commands.ts): fixes that ask
   * something (shard count, attribute, reader file) are then also offered in their
   * asking form. Without it only the default form (an edit) is offered.
   */
  askFix?: boolean;
  /**
   * A folder the server may keep its analysis cache in (VS Code: the extension's storage
   * for this workspace). Absent: the folder's `node_modules/.cache/shardlens`, or
   * `.shardlens-cache/` in it, as the CLI's `check --cache` uses.
   */
  cacheDir?: string;
}

/** Client → server when the user grants trust after start (VS Code's `onDidGrantWorkspaceTrust`). */
export const TrustNotification = new NotificationType<{ trusted: boolean }>('shardlens/trust');

/**
 * The live-heat connection as the status bar shows it:
 * - `off`: no `shardlens.aws.*` setting names a connection;
 * - `untrusted`: a connection is set but the workspace is not trusted (no AWS call made);
 * - `refreshing`: a fetch is under way;
 * - `ok`: every table answered (`problem` may still hold a note, e.g. Contributor Insights off);
 * - `problem`: a fetch failed; `problem` says what to do.
 */
export interface HeatStatus {
  state: 'off' | 'untrusted' | 'refreshing' | 'ok' | 'problem';
  /** `profile · region`, `lab` for a loopback endpoint, the endpoint's host otherwise; null when off. */
  label: string | null;
  window: HeatWindow;
  /** When the last fetch finished, ISO 8601; null before the first. */
  lastRefresh: string | null;
  /** The tables (and indexes) read, as `table` or `table/index`. */
  tables: string[];
  /** The first problem of the last refresh, if any (the others are in the server log). */
  problem: JsonHeatProblem | null;
  /**
   * Tables the code names through the environment (`$SCORES_TABLE_NAME`) with no mapping to
   * a table of the account (`shardlens.tables`): nothing is read for them; the client warns
   * and offers to pick their tables. Absent means none.
   */
  unmapped?: string[];
}

/** Server → client whenever the heat status changes (after every refresh, settings change, trust change). */
export const HeatStatusNotification = new NotificationType<HeatStatus>('shardlens/heatStatus');

export interface CursorParams {
  textDocument: { uri: string };
  /** Zero-based, as LSP positions are. */
  position: { line: number; character: number };
}

/**
 * The logical key under the cursor, for the panel to follow the editor. The client asks
 * on selection changes (debounced); null when the cursor is on no key expression.
 * `logicalKey` is the display form the panel's `shardlens/keys` tree uses.
 */
export interface CursorResult {
  logicalKey: string;
  table: string | null;
  index: string | null;
  attribute: string;
}

/** Client → server: which logical key is at this position. */
export const CursorRequest = new RequestType<CursorParams, CursorResult | null, void>('shardlens/cursor');
