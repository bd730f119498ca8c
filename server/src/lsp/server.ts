/**
 * The ShardLens language server: wires the connection to the feature modules, and
 * nothing else. The analysis itself lives in ../engine, shared with the CLI.
 */
import * as fs from 'node:fs';
import {
  CodeActionKind,
  CodeActionRequest,
  CodeLensRefreshRequest,
  CodeLensRequest,
  createConnection,
  DidChangeConfigurationNotification,
  ErrorCodes,
  ExecuteCommandRequest,
  FileChangeType,
  HoverRequest,
  ProposedFeatures,
  ResponseError,
  TextDocumentSyncKind,
  type InitializeResult,
} from 'vscode-languageserver/node';
import { Commands, SERVER_COMMANDS } from '../../../protocol/src/commands';
import { HeatRequest, KeysRequest, ListTablesRequest } from '../../../protocol/src/heat';
import {
  CheckWorkspaceRequest,
  CursorRequest,
  HeatStatusNotification,
  TrustNotification,
  type InitializationOptions,
} from '../../../protocol/src/lsp';
import { type Access, type Finding, initParsers, sameSpan } from '../engine';
import { borrowTrees } from '../features/fixes/syntax';
import { placeName } from '../features/fixes/key-sites';
import { FIX_ALL_ADVERTISED, FIX_ALL_KIND, codeActions } from './code-actions';
import { contains, uriToPath } from './convert';
import type { ClientEdits } from './fix-actions';
import { FixState } from './fix-state';
import {
  answerCursor,
  answerHeat,
  answerKeys,
  answerListTables,
  applyFix,
  enableInsightsCommand,
  type Handlers,
} from './handlers';
import { accessAt, hoverMarkdown } from './hover';
import { changesOnly } from './log';
import { plural, severityCounts } from '../../../protocol/src/plural';
import { routeSdkNodeWarning } from '../heat/sdk-warnings';
import { text as markdownText } from './markdown';
import { combinedSource, LiveHeat } from './live-heat';
import { heatLenses, hoverLiveLine } from './live-view';
import { OpenDocuments } from './open-documents';
import { codeActionParams, didChangeParams, documentUri, hoverParams } from './params';
import { SettingsStore } from './settings';
import { forgetConfigs } from '../config/project-config';
import { ConfigDiagnostics, installRoleOverride, isConfigFile } from './project-config';
import { Workspace } from './workspace';

const DEBOUNCE_MS = 150;

const connection = createConnection(ProposedFeatures.all);
// The AWS SDK's Node-version notice: one info line in the log, not seven stderr lines shown as errors.
routeSdkNodeWarning((line) => connection.console.info(line));
const parsersReady = initParsers();
const docs = new OpenDocuments(parsersReady);
let settings: SettingsStore;
let configDiagnostics: ConfigDiagnostics;
let workspace: Workspace;
let fixState: FixState;
/** Each open document's pending (debounced) analysis. */
const timers = new Map<string, NodeJS.Timeout>();
/** Each document's analysis under way (it awaits settings and publishing), the last one queued. */
const running = new Map<string, Promise<void>>();
let live: LiveHeat;
let handlers: Handlers;
/** What the client said it supports, from `initialize`. */
const capabilities = { configuration: false, workspaceFolders: false, codeLensRefresh: false };
const clientEdits: ClientEdits = { createFiles: false, askFix: false };
let folders: string[] = [];
// The fixes read an open document's syntax tree rather than parse its text again.
borrowTrees((file, text) => docs.treeOf(file, text));

connection.onInitialize((params): InitializeResult => {
  capabilities.configuration = !!params.capabilities.workspace?.configuration;
  capabilities.workspaceFolders = !!params.capabilities.workspace?.workspaceFolders;
  capabilities.codeLensRefresh = !!params.capabilities.workspace?.codeLens?.refreshSupport;
  const edits = params.capabilities.workspace?.workspaceEdit;
  clientEdits.createFiles = !!edits?.documentChanges && !!edits.resourceOperations?.includes('create');
  const init = (params.initializationOptions ?? {}) as InitializationOptions;
  clientEdits.askFix = init.askFix === true;
  configDiagnostics = new ConfigDiagnostics(connection);
  settings = new SettingsStore(
    connection,
    capabilities.configuration,
    (c) => configDiagnostics.seen(c),
    () => folders,
  );
  installRoleOverride();
  folders = (params.workspaceFolders ?? []).map((f) => uriToPath(f.uri)).filter((p): p is string => !!p);
  if (folders.length === 0 && params.rootUri) {
    const root = uriToPath(params.rootUri);
    if (root) folders.push(root);
  }
  workspace = new Workspace(connection, settings, docs, folders, init.cacheDir);
  fixState = new FixState(workspace, docs, settings);
  live = new LiveHeat(
    {
      settings: () => settings.get(),
      source: () => combinedSource(workspace.allIndexes()),
      changed: async () => {
        await workspace.publishAll();
        if (capabilities.codeLensRefresh)
          await connection.sendRequest(CodeLensRefreshRequest.type).catch(() => undefined);
      },
      status: (s) => void connection.sendNotification(HeatStatusNotification, s),
      // Each refresh reports its tables' problems again: the log keeps only what changed.
      log: changesOnly((m) => connection.console.info(m)),
    },
    // Absent counts as untrusted: no AWS call unless the client says the workspace is trusted.
    init.workspaceTrusted === true,
  );
  workspace.setLive(live);
  handlers = { connection, workspace, docs, settings, live, client: clientEdits, folders: () => folders, flush };
  return {
    capabilities: {
      textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
      hoverProvider: true,
      codeActionProvider: {
        codeActionKinds: FIX_ALL_ADVERTISED ? [CodeActionKind.QuickFix, FIX_ALL_KIND] : [CodeActionKind.QuickFix],
      },
      codeLensProvider: { resolveProvider: false },
      executeCommandProvider: { commands: [...SERVER_COMMANDS] },
      workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
    },
    serverInfo: { name: 'shardlens' },
  };
});

connection.onInitialized(async () => {
  if (capabilities.configuration) {
    await connection.client.register(DidChangeConfigurationNotification.type, { section: 'shardlens' });
  }
  if (capabilities.workspaceFolders) {
    connection.workspace.onDidChangeWorkspaceFolders(async () => {
      const now = (await connection.workspace.getWorkspaceFolders()) ?? [];
      folders = now.map((f) => uriToPath(f.uri)).filter((p): p is string => !!p);
      workspace.setFolders(folders);
      // A file's settings come from the deepest folder holding it, which a new folder may be.
      settings.clear();
      await applyContexts();
      await workspace.indexAll();
    });
  }
  await parsersReady;
  await applyContexts();
  const result = await workspace.indexAll();
  connection.console.info(
    `ShardLens indexed ${plural(result.files, 'file')} in ${result.durationMs} ms: ${severityCounts(result)}; ` +
      `${result.skipped.length} skipped.`,
  );
  for (const s of result.skipped) connection.console.info(`skipped ${s.file}: ${s.reason}`);
  // After the index: live heat reads the tables the code names.
  await live.configure();
});

connection.onDidChangeConfiguration(async () => {
  // Settings apply live: severities and exclusions change what is published, contexts
  // what is analysed, the AWS settings where live heat comes from.
  settings.clear();
  if (await applyContexts()) await workspace.indexAll();
  else await workspace.publishAll();
  await live.configure();
});

// No AWS call after the client asked the server to stop.
connection.onShutdown(() => live?.stop());

connection.onNotification(TrustNotification, async (p: unknown) => {
  const trusted = (p as { trusted?: unknown } | null)?.trusted;
  if (typeof trusted === 'boolean') await live.setTrusted(trusted);
});

/**
 * Reads each folder's `shardlens.contexts`; when one changed, its index is rebuilt
 * (by the caller's `indexAll`) and the open documents are analysed afresh with it.
 */
async function applyContexts(): Promise<boolean> {
  if (!(await workspace.applyContexts())) return false;
  docs.setOptions((key) => workspace.indexFor(key).fileOptions);
  return true;
}

/**
 * Analyses an open document as it is now and publishes what changed. Waits for the
 * grammars first: documents are registered (and take their edits) before they load.
 */
function analyse(uri: string): Promise<void> {
  return inTurn(uri, 'analysis', async () => {
    const analysis = docs.refresh(uri);
    if (!analysis) return;
    await workspace.update(analysis);
    fixState.published(uri);
  });
}

/**
 * Runs `work` for a document after the work queued before it, once the grammars are
 * loaded. One at a time per document, in the order the client's messages came: an
 * older analysis that finished publishing after a newer one would leave stale
 * diagnostics up, and a close that went back to the disk after a reopen had analysed
 * the buffer would drop the reopened document's findings.
 */
function inTurn(uri: string, what: string, work: () => Promise<void>): Promise<void> {
  const settled = (running.get(uri) ?? parsersReady)
    .then(work)
    .catch((e: unknown) => connection.console.error(`${what} of ${uri} failed: ${String(e)}`));
  running.set(uri, settled);
  void settled.then(() => running.get(uri) === settled && running.delete(uri));
  return settled;
}

/**
 * Runs a document's pending (debounced) analysis now and waits for any under way, for
 * a request that needs its findings current (and published) when it answers.
 */
async function flush(uri: string): Promise<void> {
  const timer = timers.get(uri);
  if (timer) {
    clearTimeout(timer);
    timers.delete(uri);
    void analyse(uri);
  }
  await running.get(uri);
}

const invalid = (message: string) => new ResponseError(ErrorCodes.InvalidParams, message);

connection.onDidOpenTextDocument(async (p) => {
  const uri = documentUri(p);
  if (!uri || typeof p.textDocument.text !== 'string') {
    return connection.console.error('textDocument/didOpen needs { textDocument: { uri, languageId, version, text } }');
  }
  const key = OpenDocuments.keyOf(uri);
  if (docs.open(p, workspace.indexFor(key).fileOptions)) await analyse(uri);
});

connection.onDidChangeTextDocument((raw) => {
  const p = didChangeParams(raw);
  // Refused whole: applying part of a malformed change would leave a text the client never had.
  if (typeof p === 'string') return connection.console.error(`${p}; the change is ignored`);
  if (!docs.change(p)) return;
  fixState.edited();
  const uri = p.uri;
  clearTimeout(timers.get(uri));
  timers.set(
    uri,
    setTimeout(() => {
      timers.delete(uri);
      void analyse(uri);
    }, DEBOUNCE_MS),
  );
});

connection.onDidCloseTextDocument(async (p) => {
  const uri = documentUri(p);
  if (!uri) return connection.console.error('textDocument/didClose needs { textDocument: { uri } }');
  clearTimeout(timers.get(uri));
  timers.delete(uri);
  // A document never opened (or in a language ShardLens does not read) changes nothing:
  // reading it from disk would list a file that may not exist as unreadable.
  if (!docs.close(uri)) return;
  const key = OpenDocuments.keyOf(uri);
  await inTurn(uri, 'closing', async () => {
    // Reopened meanwhile: the reopened document's analysis, queued next, stands for it.
    if (docs.get(uri)) return;
    // Back to what is on disk for a workspace file; an unsaved buffer, a file deleted
    // meanwhile or one outside the workspace takes its findings with it.
    if (uriToPath(uri) && workspace.inFolders(key) && isFile(key)) await workspace.refreshFile(key);
    else await workspace.forget(key);
  });
});

connection.onDidChangeWatchedFiles(async (p) => {
  const changes: unknown[] = Array.isArray(p?.changes) ? p.changes : [];
  await configChanged(changes);
  for (const change of changes) {
    const uri = documentUri({ textDocument: change });
    const key = uri && uriToPath(uri);
    if (!key || docs.get(uri) || isConfigFile(key)) continue;
    const type = (change as { type?: unknown }).type;
    if (type === FileChangeType.Deleted) await workspace.forget(key);
    else await workspace.refreshFile(key);
  }
});

/**
 * A project config (shardlens.config.json, package.json, pyproject.toml) changed on disk:
 * everything is judged again with it, as after a settings change (its contexts and entry
 * points change what is analysed, so the index is rebuilt), and its problems are shown.
 */
async function configChanged(changes: unknown[]): Promise<void> {
  const files = changes
    .map((c) => documentUri({ textDocument: c }))
    .map((u) => (u ? uriToPath(u) : null))
    .filter((f): f is string => !!f && isConfigFile(f));
  if (files.length === 0) return;
  forgetConfigs();
  settings.clear();
  for (const f of files) configDiagnostics.recheck(f);
  await applyContexts();
  docs.setOptions((key) => workspace.indexFor(key).fileOptions);
  await workspace.indexAll();
}

// Registered as plain requests, not with onHover/onCodeAction: those read the params'
// progress tokens before the handler runs, and answer `params: null` with a TypeError.
connection.onRequest(HoverRequest.type, async (raw: unknown) => {
  const p = hoverParams(raw);
  if (typeof p === 'string') return invalid(p);
  await parsersReady;
  const analysis = docs.refresh(p.textDocument.uri);
  if (!analysis) return null;
  const key = OpenDocuments.keyOf(p.textDocument.uri);
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
  const p = codeActionParams(raw);
  if (typeof p === 'string') return invalid(p);
  const uri = p.textDocument.uri;
  // The actions come from the findings, whose ranges must match the text the client has.
  await flush(uri);
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
  await flush(uri);
  const analysis = docs.refresh(uri);
  if (!analysis || !(await settings.get(uri)).enable) return [];
  return heatLenses(uri, analysis.accesses, await live.reports());
});

connection.onRequest(ExecuteCommandRequest.type, async (raw: unknown) => {
  const p = raw as { command?: unknown; arguments?: unknown[] } | null;
  const arg = Array.isArray(p?.arguments) ? p.arguments[0] : undefined;
  switch (p?.command) {
    case Commands.applyFix:
      return applyFix(handlers, arg);
    case Commands.refreshHeat:
      return live.refresh();
    case Commands.enableInsights:
      return enableInsightsCommand(handlers, arg);
    default:
      return invalid(`unknown command ${String(p?.command)}`);
  }
});

connection.onRequest(CheckWorkspaceRequest, () => workspace.indexAll());
connection.onRequest(KeysRequest, () => answerKeys(handlers));
connection.onRequest(HeatRequest, (p: unknown) => answerHeat(handlers, p));
connection.onRequest(ListTablesRequest, () => answerListTables(handlers));
connection.onRequest(CursorRequest, (p: unknown) => answerCursor(handlers, p));

/**
 * Tests only (registered when SHARDLENS_TEST_REQUESTS=1, never in a release): a
 * document's text as the server holds it, twice — the text document's and the one its
 * syntax tree was edited with — after its pending analysis has run and published.
 */
if (process.env.SHARDLENS_TEST_REQUESTS === '1') {
  connection.onRequest('shardlens/test/documentText', async (p: unknown) => {
    const uri = documentUri(p);
    if (!uri) return invalid('shardlens/test/documentText needs { textDocument: { uri } }');
    await flush(uri);
    return { text: docs.get(uri)?.getText() ?? null, treeText: docs.treeTextOf(uri) };
  });
}

function isFile(file: string): boolean {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

connection.listen();
