/**
 * The requests the server answers: hover, code actions, code lenses, the commands it
 * runs, and ShardLens's own requests (keys, heat, tables, cursor, a workspace check).
 */
import {
  CodeActionRequest,
  CodeLensRequest,
  ErrorCodes,
  ExecuteCommandRequest,
  HoverRequest,
  ResponseError,
} from 'vscode-languageserver/node';
import { Commands } from '../../../protocol/src/commands';
import { HeatRequest, KeysRequest, ListTablesRequest } from '../../../protocol/src/heat';
import { CheckWorkspaceRequest, CursorRequest } from '../../../protocol/src/lsp';
import { type Access, type Finding, sameSpan } from '../engine';
import { placeName } from '../features/fixes/key-sites';
import { codeActions } from './code-actions';
import { contains } from './convert';
import { answerCursor, answerHeat, answerKeys, answerListTables, applyFix, enableInsightsCommand } from './handlers';
import { accessAt, hoverMarkdown } from './hover';
import { templateHover } from './template-hover';
import { heatLenses, hoverLiveLine } from './live-view';
import { text as markdownText } from './markdown';
import { OpenDocuments } from './open-documents';
import { codeActionParams, documentUri, hoverParams } from './params';
import type { ServerState } from './server-state';

const invalid = (message: string) => new ResponseError(ErrorCodes.InvalidParams, message);

export function registerRequests(state: ServerState): void {
  const { connection, docs, queue, clientEdits } = state;

  // Registered as plain requests, not with onHover/onCodeAction: those read the params'
  // progress tokens before the handler runs, and answer `params: null` with a TypeError.
  connection.onRequest(HoverRequest.type, async (raw: unknown) => {
    const { workspace, live, settings, fixState } = state;
    const p = hoverParams(raw);
    if (typeof p === 'string') return invalid(p);
    await state.parsersReady;
    const key = OpenDocuments.keyOf(p.textDocument.uri);
    if (docs.templates.has(p.textDocument.uri)) {
      await queue.flush(p.textDocument.uri);
      const tables = workspace.tablesDeclaredIn(key);
      const contents = templateHover(tables, await workspace.findingsFor(key), p.position.line, p.position.character);
      return contents && { contents };
    }
    // The accesses under the cursor need no reach and no findings of the document: those
    // come from the workspace's index, which the debounced analysis brings up to date.
    const analysis = docs.accessesNow(p.textDocument.uri);
    if (!analysis) return null;
    const findings = await workspace.findingsFor(key);
    // On a squiggle away from the call (a Python parameter's default that is the key): its finding's call.
    const squiggled = findings.find((f) => contains(f.span, p.position.line, p.position.character))?.access;
    const opened = accessAt(analysis.accesses, p.position.line, p.position.character) ?? squiggled;
    if (!opened) return null;
    // The same call as the index read it, which the diagnostics come from: a document opened
    // before indexing finished was analysed without what other files tell (key names, wrappers).
    const indexed = workspace
      .indexFor(key)
      .analysisOf(key)
      ?.accesses.filter((a) => sameSpan(a.span, opened.span) && a.operation === opened.operation);
    const access = (indexed?.length && accessAt(indexed, p.position.line, p.position.character)) || opened;
    const liveText = hoverLiveLine(await live.reports(), access, (await settings.get()).tables);
    const reached = workspace.reachedFromCallers(access);
    const s = await settings.get(p.textDocument.uri);
    const gen = workspace.generation;
    const ctx = fixState.contextFor(gen, key, s.shards);
    // Files named as the fixes name them: unambiguous among the workspace's (every Lambda's index.js).
    const contents = hoverMarkdown(
      access,
      findings,
      s,
      liveText,
      reached,
      placeName(ctx),
      workspace.indexFor(key).entryReachOf(access),
    );
    // A hot write no shard fix can rewrite safely says what blocks it, as the light bulb does.
    const own = findings.filter((f) => f.access.file === access.file && sameSpan(f.access.span, access.span));
    // Kept per index generation like the code actions' fixes: working out every access of the
    // key for each hover cost idle hovers a p99 of 59 ms.
    const blockedTitles = own.flatMap((f) => fixState.blocked(gen, f, ctx, s.shards));
    const blocked = [...new Set(blockedTitles.map((a) => a.title.replace(/^No shard fix: /, '')))];
    for (const why of blocked) contents.value += `\n\n**No shard fix:** ${markdownText(why)}`;
    return { contents };
  });

  connection.onRequest(CodeActionRequest.type, async (raw: unknown) => {
    const { workspace, settings, fixState } = state;
    const p = codeActionParams(raw);
    if (typeof p === 'string') return invalid(p);
    const uri = p.textDocument.uri;
    // The actions come from the findings, whose ranges must match the text the client has.
    await queue.flush(uri);
    const doc = docs.get(uri);
    const language = docs.languageOf(uri);
    if (!doc || !language) return [];
    const key = OpenDocuments.keyOf(uri);
    const findings = await workspace.findingsFor(key);
    const s = await settings.get(uri);
    const gen = workspace.generation;
    const ctx = fixState.contextFor(gen, key, s.shards);
    const fixes = {
      ctx,
      client: clientEdits,
      ofFinding: (f: Finding) => fixState.ofFinding(gen, f, ctx, s.shards),
      ofWriter: (w: Access) => fixState.ofWriter(gen, w, ctx, s.shards),
    };
    const accesses = ctx.analysisOf(key)?.accesses ?? [];
    return codeActions({ doc, language, findings, settings: s, accesses, fixes }, p);
  });

  connection.onRequest(CodeLensRequest.type, async (raw: unknown) => {
    const uri = documentUri(raw);
    if (!uri) return invalid('textDocument/codeLens needs { textDocument: { uri } }');
    await queue.flush(uri);
    const analysis = docs.refresh(uri);
    if (!analysis || !(await state.settings.get(uri)).enable) return [];
    return heatLenses(uri, analysis.accesses, await state.live.reports());
  });

  connection.onRequest(ExecuteCommandRequest.type, async (raw: unknown) => {
    const p = raw as { command?: unknown; arguments?: unknown[] } | null;
    const arg = Array.isArray(p?.arguments) ? p.arguments[0] : undefined;
    switch (p?.command) {
      case Commands.applyFix:
        return applyFix(state.handlers, arg);
      case Commands.refreshHeat:
        return state.live.refresh();
      case Commands.enableInsights:
        return enableInsightsCommand(state.handlers, arg);
      default:
        return invalid(`unknown command ${String(p?.command)}`);
    }
  });

  connection.onRequest(CheckWorkspaceRequest, () => state.workspace.indexAll());
  connection.onRequest(KeysRequest, () => answerKeys(state.handlers));
  connection.onRequest(HeatRequest, (p: unknown) => answerHeat(state.handlers, p));
  connection.onRequest(ListTablesRequest, () => answerListTables(state.handlers));
  connection.onRequest(CursorRequest, (p: unknown) => answerCursor(state.handlers, p));

  /**
   * Tests only (registered when SHARDLENS_TEST_REQUESTS=1, never in a release): a
   * document's text as the server holds it, twice — the text document's and the one its
   * syntax tree was edited with — after its pending analysis has run and published.
   */
  if (process.env.SHARDLENS_TEST_REQUESTS === '1') {
    connection.onRequest('shardlens/test/documentText', async (p: unknown) => {
      const uri = documentUri(p);
      if (!uri) return invalid('shardlens/test/documentText needs { textDocument: { uri } }');
      await queue.flush(uri);
      return { text: docs.get(uri)?.getText() ?? null, treeText: docs.treeTextOf(uri) };
    });
  }
}
