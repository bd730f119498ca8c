/**
 * The start and end of the connection: what the server offers the client
 * (`initialize`), the first index once the client is ready (`initialized`), the
 * workspace folders' changes, trust, and shutdown.
 */
import {
  CodeActionKind,
  CodeLensRefreshRequest,
  DidChangeConfigurationNotification,
  TextDocumentSyncKind,
  type InitializeResult,
} from 'vscode-languageserver/node';
import { SERVER_COMMANDS } from '../../../protocol/src/commands';
import { HeatStatusNotification, TrustNotification, type InitializationOptions } from '../../../protocol/src/lsp';
import { plural, severityCounts } from '../../../protocol/src/plural';
import { FIX_ALL_ADVERTISED, FIX_ALL_KIND } from './code-actions';
import { applyContexts } from './configuration';
import { uriToPath } from './convert';
import { FixState } from './fix-state';
import { combinedSource, LiveHeat } from './live-heat';
import { changesOnly } from './log';
import { ConfigDiagnostics, installRoleOverride } from './project-config';
import type { ServerState } from './server-state';
import { SettingsStore } from './settings';
import { Workspace } from './workspace';

export function registerLifecycle(state: ServerState): void {
  const { connection, capabilities, clientEdits, docs } = state;

  connection.onInitialize((params): InitializeResult => {
    capabilities.configuration = !!params.capabilities.workspace?.configuration;
    capabilities.workspaceFolders = !!params.capabilities.workspace?.workspaceFolders;
    capabilities.codeLensRefresh = !!params.capabilities.workspace?.codeLens?.refreshSupport;
    const edits = params.capabilities.workspace?.workspaceEdit;
    clientEdits.createFiles = !!edits?.documentChanges && !!edits.resourceOperations?.includes('create');
    const init = (params.initializationOptions ?? {}) as InitializationOptions;
    clientEdits.askFix = init.askFix === true;
    const configDiagnostics = (state.configDiagnostics = new ConfigDiagnostics(connection));
    const settings = (state.settings = new SettingsStore(
      connection,
      capabilities.configuration,
      (c) => configDiagnostics.seen(c),
      () => state.folders,
    ));
    installRoleOverride();
    const folders = (params.workspaceFolders ?? []).map((f) => uriToPath(f.uri)).filter((p): p is string => !!p);
    if (folders.length === 0 && params.rootUri) {
      const root = uriToPath(params.rootUri);
      if (root) folders.push(root);
    }
    state.folders = folders;
    const workspace = (state.workspace = new Workspace(
      connection,
      settings,
      docs,
      folders,
      state.parsersReady,
      init.cacheDir,
    ));
    state.fixState = new FixState(workspace, docs, settings);
    const live = (state.live = new LiveHeat(
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
    ));
    workspace.setLive(live);
    state.handlers = {
      connection,
      workspace,
      docs,
      settings,
      live,
      client: clientEdits,
      folders: () => state.folders,
      flush: (uri) => state.queue.flush(uri),
    };
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
    const { workspace, settings, live } = state;
    if (capabilities.configuration) {
      await connection.client.register(DidChangeConfigurationNotification.type, { section: 'shardlens' });
    }
    if (capabilities.workspaceFolders) {
      connection.workspace.onDidChangeWorkspaceFolders(async () => {
        const now = (await connection.workspace.getWorkspaceFolders()) ?? [];
        state.folders = now.map((f) => uriToPath(f.uri)).filter((p): p is string => !!p);
        workspace.setFolders(state.folders);
        // A file's settings come from the deepest folder holding it, which a new folder may be.
        settings.clear();
        await applyContexts(state);
        await workspace.indexAll();
      });
    }
    // The grammars finish loading while the workspace is walked (indexAll waits for them then).
    await applyContexts(state);
    const result = await workspace.indexAll();
    connection.console.info(
      `ShardLens indexed ${plural(result.files, 'file')} in ${result.durationMs} ms: ${severityCounts(result)}; ` +
        `${result.skipped.length} skipped.`,
    );
    for (const s of result.skipped) connection.console.info(`skipped ${s.file}: ${s.reason}`);
    // After the index: live heat reads the tables the code names.
    await live.configure();
  });

  // No AWS call after the client asked the server to stop.
  connection.onShutdown(() => state.live?.stop());

  connection.onNotification(TrustNotification, async (p: unknown) => {
    const trusted = (p as { trusted?: unknown } | null)?.trusted;
    if (typeof trusted === 'boolean') await state.live.setTrusted(trusted);
  });
}
