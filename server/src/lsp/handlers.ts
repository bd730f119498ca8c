import * as path from 'node:path';
import type { Connection } from 'vscode-languageserver';
import {
  Commands,
  type ApplyFixArgs,
  type ApplyFixResult,
  type EnableInsightsArgs,
  type EnableInsightsResult,
} from '../../../protocol/src/commands';
import type { HeatParams, HeatResult, ListTablesResult } from '../../../protocol/src/heat';
import type { CursorParams, CursorResult } from '../../../protocol/src/lsp';
import type { JsonKeysReport } from '../../../protocol/src/report';
import { toJsonKeys } from '../cli/keys';
import { logicalKeyOf } from '../engine';
import { fixContextOf } from '../features/fixes/context';
import { isLoopback, resolveTable, toJsonProblem, unmappedProblem, withLiveUse } from '../heat/offline';
import { awsHeat } from './load-heat';
import { keyToUri, spanToRange } from './convert';
import { answersOf, fixFor, workspaceEdit, type ClientEdits } from './fix-actions';
import { accessAt } from './hover';
import { combinedSource, connectionOf, type LiveHeat } from './live-heat';
import { OpenDocuments } from './open-documents';
import type { SettingsStore } from './settings';
import type { Workspace } from './workspace';

/**
 * The custom requests and server commands: applying a fix with the user's answers,
 * the panel's `shardlens/keys`, `shardlens/heat` and `shardlens/cursor`, and the heat
 * refresh and enable commands. Each checks its arguments and answers with an error
 * value rather than throwing.
 */
export interface Handlers {
  connection: Connection;
  workspace: Workspace;
  docs: OpenDocuments;
  settings: SettingsStore;
  live: LiveHeat;
  client: ClientEdits;
  folders: () => string[];
  /** Runs the document's pending analysis, so findings match the client's text. */
  flush: (uri: string) => Promise<void>;
}

const isObj = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null;
const isPos = (p: unknown) =>
  isObj(p) && Number.isInteger(p.line) && Number.isInteger(p.character) && (p.line as number) >= 0;

export async function applyFix(h: Handlers, raw: unknown): Promise<ApplyFixResult> {
  const args = raw as ApplyFixArgs;
  if (!isObj(args) || typeof args.uri !== 'string' || typeof args.fixId !== 'string' || !isObj(args.range)) {
    return { applied: false, reason: `${Commands.applyFix} needs { uri, range, rule?, fixId, answers? }` };
  }
  if (!isPos(args.range.start) || !isPos(args.range.end)) return { applied: false, reason: 'range is not a range' };
  const answers = answersOf(args.answers);
  if (typeof answers === 'string') return { applied: false, reason: answers };
  await h.flush(args.uri);
  const key = OpenDocuments.keyOf(args.uri);
  const index = h.workspace.indexFor(key);
  const settings = await h.settings.get(args.uri);
  const ctx = fixContextOf(index, { openText: (f) => h.docs.textOf(f), shards: settings.shards });
  const accesses = ctx.analysisOf(key)?.accesses ?? [];
  const fix = fixFor(args, await h.workspace.findingsFor(key), accesses, ctx, answers);
  if (typeof fix === 'string') return { applied: false, reason: fix };
  if (fix.changes.length === 0) return { applied: false, reason: 'this fix is advice only: it edits nothing' };
  const edit = workspaceEdit(fix, ctx, h.client);
  if (!edit) return { applied: false, reason: 'the fix creates a file and the client cannot create files' };
  const result = await h.connection.workspace.applyEdit({ label: fix.title, edit });
  if (!result.applied) return { applied: false, reason: result.failureReason ?? 'the client did not apply the edit' };
  return {
    applied: true,
    ...(fix.reveal ? { reveal: { uri: keyToUri(fix.reveal.file), range: spanToRange(fix.reveal.span) } } : {}),
  };
}

/** A file as the panel resolves it: relative to the workspace folder holding it, else absolute. */
function panelPath(file: string, folders: string[]): string {
  const folder = folders.find((f) => file.startsWith(f + path.sep));
  return (folder ? path.relative(folder, file) : file).split(path.sep).join('/');
}

/** `shardlens/keys`: every folder's keys, files relative to their workspace folder. */
export async function answerKeys(h: Handlers): Promise<JsonKeysReport> {
  // The live reports already fetched (no new call): a verdict they decide is shown as live, as in the editor.
  const reports = await h.live.reports();
  const report = toJsonKeys(
    combinedSource(h.workspace.allIndexes()).keys(),
    reports.length ? (f) => withLiveUse(reports, f) : undefined,
  );
  // toJsonKeys writes files relative to the process's folder (the CLI's contract).
  for (const t of report.tables)
    for (const ix of t.indexes)
      for (const k of ix.keys)
        for (const s of k.sites) s.file = panelPath(path.resolve(process.cwd(), s.file), h.folders());
  return report;
}

/** `shardlens/heat`: the panel's question, from the same cache as the editor's live data. */
export async function answerHeat(h: Handlers, raw: unknown): Promise<HeatResult> {
  const p = raw as HeatParams;
  if (!isObj(p) || typeof p.table !== 'string' || p.table === '') {
    return {
      ok: false,
      problem: { code: 'failed', message: 'shardlens/heat needs { table, index?, window?, refresh? }', command: null },
    };
  }
  const allowed = await h.live.requestCache();
  if (!allowed) {
    const s = h.live.status;
    const message =
      s.state === 'untrusted'
        ? 'The workspace is not trusted: ShardLens makes no AWS call in it. Trust the workspace to see live heat.'
        : 'No AWS connection is set: set shardlens.aws.profile and shardlens.aws.region (or shardlens.aws.endpoint for the lab).';
    return {
      ok: false,
      problem: { code: s.state === 'untrusted' ? 'untrusted' : 'not-connected', message, command: null },
    };
  }
  const { settings, cache } = allowed;
  // The panel asks by the code's table name: an environment name goes through
  // shardlens.tables, and an unmapped one is answered without any AWS call.
  const table = resolveTable(p.table, settings.tables);
  if (table === null) return { ok: false, problem: toJsonProblem(unmappedProblem([p.table])) };
  return awsHeat().answerHeatRequest(
    { ...p, table },
    { ...connectionOf(settings), window: settings.heat.window },
    combinedSource(h.workspace.allIndexes()),
    cache,
    (f) => panelPath(f, h.folders()),
    table === p.table ? [] : [p.table],
    PANEL_MAX_AGE_MS,
  );
}

/**
 * How old a cached answer the panel is given: it asks on becoming visible and after each
 * background refresh, and a window other than the settings' one is not kept fresh by the
 * poller, so an older answer is fetched again.
 */
const PANEL_MAX_AGE_MS = 60_000;

/** `shardlens/listTables`: the account's tables, for mapping environment-named tables. */
export async function answerListTables(h: Handlers): Promise<ListTablesResult> {
  const allowed = await h.live.requestCache();
  if (!allowed) {
    const message = 'Live heat is off (no AWS connection set, or the workspace is not trusted): no table is listed.';
    return {
      ok: false,
      problem: { code: h.live.status.state === 'untrusted' ? 'untrusted' : 'not-connected', message, command: null },
    };
  }
  const r = await awsHeat().listTables(connectionOf(allowed.settings));
  return r.ok ? r : { ok: false, problem: toJsonProblem(r.problem) };
}

/** `shardlens/cursor`: the logical key of the access under the position. */
export async function answerCursor(h: Handlers, raw: unknown): Promise<CursorResult | null> {
  const p = raw as CursorParams;
  if (!isObj(p) || !isObj(p.textDocument) || typeof p.textDocument.uri !== 'string' || !isPos(p.position)) return null;
  // Which key is under the cursor needs the document's accesses only, not its reach and findings.
  const analysis = h.docs.accessesNow(p.textDocument.uri);
  const access = analysis && accessAt(analysis.accesses, p.position.line, p.position.character);
  const key = access && logicalKeyOf(access);
  return key ? { logicalKey: key.id, table: key.table, index: key.index, attribute: key.attribute } : null;
}

export async function enableInsightsCommand(h: Handlers, raw: unknown): Promise<EnableInsightsResult> {
  const a = raw as EnableInsightsArgs;
  const modes = ['ACCESSED_AND_THROTTLED_KEYS', 'THROTTLED_KEYS'];
  if (!isObj(a) || typeof a.table !== 'string' || !modes.includes(a.mode as string)) {
    return { ok: false, message: `${Commands.enableInsights} needs { table, index, mode }` };
  }
  const allowed = await h.live.requestCache();
  if (!allowed)
    return { ok: false, message: 'Live heat is off (no AWS connection set, or the workspace is not trusted).' };
  // An environment name of the code goes through shardlens.tables, never to AWS as written.
  const table = resolveTable(a.table, allowed.settings.tables);
  if (table === null) return { ok: false, message: unmappedProblem([a.table]).message };
  // The lab checks no signature: placeholder credentials when no profile is named (as heat reads do).
  const connection = connectionOf(allowed.settings);
  const aws = awsHeat();
  const clients = aws.makeClients(connection, isLoopback(connection.endpoint) && !connection.profile);
  try {
    const problem = await aws.enableInsights(clients, table, typeof a.index === 'string' ? a.index : null, a.mode);
    if (problem) return { ok: false, message: problem.message };
  } finally {
    clients.destroy();
  }
  void h.live.refresh();
  return { ok: true, message: null };
}
