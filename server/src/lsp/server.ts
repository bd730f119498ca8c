/**
 * The ShardLens language server: wires the connection to the feature modules, and
 * nothing else. The analysis itself lives in ../engine, shared with the CLI.
 */
import {
  CodeActionKind,
  createConnection,
  DidChangeConfigurationNotification,
  FileChangeType,
  ProposedFeatures,
  TextDocumentSyncKind,
  type InitializeResult,
} from 'vscode-languageserver/node';
import { CheckWorkspaceRequest } from '../../../protocol/src/lsp';
import { initParsers } from '../engine/parser';
import { FIX_ALL_KIND, codeActions } from './code-actions';
import { uriToPath } from './convert';
import { accessAt, hoverMarkdown } from './hover';
import { OpenDocuments } from './open-documents';
import { SettingsStore } from './settings';
import { Workspace } from './workspace';

const DEBOUNCE_MS = 150;

const connection = createConnection(ProposedFeatures.all);
const parsersReady = initParsers();
const docs = new OpenDocuments(parsersReady);
let settings: SettingsStore;
let workspace: Workspace;
/** Each open document's pending (debounced) analysis. */
const timers = new Map<string, NodeJS.Timeout>();
/** What the client said it supports, from `initialize`. */
const capabilities = { configuration: false, workspaceFolders: false };

connection.onInitialize((params): InitializeResult => {
  capabilities.configuration = !!params.capabilities.workspace?.configuration;
  capabilities.workspaceFolders = !!params.capabilities.workspace?.workspaceFolders;
  settings = new SettingsStore(connection, capabilities.configuration);
  const folders = (params.workspaceFolders ?? []).map((f) => uriToPath(f.uri)).filter((p): p is string => !!p);
  if (folders.length === 0 && params.rootUri) {
    const root = uriToPath(params.rootUri);
    if (root) folders.push(root);
  }
  workspace = new Workspace(connection, settings, docs, folders);
  return {
    capabilities: {
      textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
      hoverProvider: true,
      codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, FIX_ALL_KIND] },
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
      const folders = (await connection.workspace.getWorkspaceFolders()) ?? [];
      workspace.setFolders(folders.map((f) => uriToPath(f.uri)).filter((p): p is string => !!p));
      await workspace.indexAll();
    });
  }
  await parsersReady;
  const result = await workspace.indexAll();
  connection.console.info(
    `ShardLens indexed ${result.files} files in ${result.durationMs} ms: ${result.errors} errors, ` +
      `${result.warnings} warnings, ${result.infos} info; ${result.skipped.length} skipped.`,
  );
  for (const s of result.skipped) connection.console.info(`skipped ${s.file}: ${s.reason}`);
});

connection.onDidChangeConfiguration(async () => {
  // Settings apply live: severities and exclusions change what is published.
  settings.clear();
  await workspace.publishAll();
});

/**
 * Analyses an open document as it is now and publishes what changed. Waits for the
 * grammars first: documents are registered (and take their edits) before they load.
 */
async function analyse(uri: string): Promise<void> {
  await parsersReady;
  const analysis = docs.refresh(uri);
  if (analysis) await workspace.update(analysis);
}

/** Runs a document's pending (debounced) analysis now, for a request that needs its findings current. */
async function flush(uri: string): Promise<void> {
  const timer = timers.get(uri);
  if (!timer) return;
  clearTimeout(timer);
  timers.delete(uri);
  await analyse(uri);
}

connection.onDidOpenTextDocument(async (p) => {
  const key = OpenDocuments.keyOf(p.textDocument.uri);
  if (docs.open(p, workspace.indexFor(key).fileOptions)) await analyse(p.textDocument.uri);
});

connection.onDidChangeTextDocument((p) => {
  if (!docs.change(p)) return;
  const uri = p.textDocument.uri;
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
  clearTimeout(timers.get(p.textDocument.uri));
  timers.delete(p.textDocument.uri);
  docs.close(p.textDocument.uri);
  const key = OpenDocuments.keyOf(p.textDocument.uri);
  // Back to what is on disk (an unsaved buffer's findings go with it).
  if (uriToPath(p.textDocument.uri)) await workspace.refreshFile(key);
  else await workspace.forget(key);
});

connection.onDidChangeWatchedFiles(async (p) => {
  for (const change of p.changes) {
    const key = uriToPath(change.uri);
    if (!key || docs.get(change.uri)) continue;
    if (change.type === FileChangeType.Deleted) await workspace.forget(key);
    else await workspace.refreshFile(key);
  }
});

connection.onHover(async (p) => {
  await parsersReady;
  const analysis = docs.refresh(p.textDocument.uri);
  if (!analysis) return null;
  const access = accessAt(analysis.accesses, p.position.line, p.position.character);
  if (!access) return null;
  const key = OpenDocuments.keyOf(p.textDocument.uri);
  return { contents: hoverMarkdown(access, await workspace.findingsFor(key), await settings.get(p.textDocument.uri)) };
});

connection.onCodeAction(async (p) => {
  const uri = p.textDocument.uri;
  // The actions come from the findings, whose ranges must match the text the client has.
  await flush(uri);
  const doc = docs.get(uri);
  const language = docs.languageOf(uri);
  if (!doc || !language) return [];
  const findings = await workspace.findingsFor(OpenDocuments.keyOf(uri));
  return codeActions({ doc, language, findings, settings: await settings.get(uri) }, p);
});

connection.onRequest(CheckWorkspaceRequest, () => workspace.indexAll());

connection.listen();
