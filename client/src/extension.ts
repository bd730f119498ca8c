/**
 * The ShardLens extension: starts the language server, registers the commands and
 * shows the workspace's finding count and the live-heat connection. Everything else
 * happens in the server.
 */
import * as vscode from 'vscode';
import {
  LanguageClient,
  TransportKind,
  type LanguageClientOptions,
  type ServerOptions,
} from 'vscode-languageclient/node';
import {
  HeatStatusNotification,
  StatusNotification,
  TrustNotification,
  type HeatStatus,
  type InitializationOptions,
  type WorkspaceStatus,
} from '../../protocol/src/lsp';
import { registerCommands } from './commands';
import { fixAppliedMiddleware, registerFixApplied } from './fix-applied';
import { ruleDocsMiddleware } from './rule-docs';
import { createConnectionItem } from './connection';
import { createStatusItem } from './status';
import { statusFollower } from './panel/freshness';
import { registerPanel } from './panel/provider';
import { refreshesPages } from './panel/server-state';
import { askOnce, mapTables, MAP_TABLES } from './tables';

const LANGUAGES = ['typescript', 'typescriptreact', 'javascript', 'javascriptreact', 'python'];
/** Templates, Serverless services and Terraform, as `isInfrastructureCandidate` names them. */
const INFRASTRUCTURE_FILES = '**/*.{yaml,yml,json,template,tf}';

let client: LanguageClient | null = null;

export async function activate(context: vscode.ExtensionContext): Promise<{ activationMs: number }> {
  const started = performance.now();
  const output = vscode.window.createOutputChannel('ShardLens', { log: true });
  const status = createStatusItem();
  const connection = createConnectionItem();
  const serverModule = context.asAbsolutePath('dist/server.js');
  const serverOptions: ServerOptions = {
    run: { module: serverModule, transport: TransportKind.ipc },
    debug: {
      module: serverModule,
      transport: TransportKind.ipc,
      options: { execArgv: ['--nolazy', '--inspect=6011'] },
    },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      ...LANGUAGES.flatMap((language) => [
        { scheme: 'file', language },
        { scheme: 'untitled', language },
      ]),
      // Infrastructure files on disk, whatever language the editor gives them (a `.tf` is
      // plain text without a Terraform extension): findings on table definitions (SL013)
      // show there, and an edit re-binds the tables and entry points they declare. The
      // server ignores a YAML or JSON file that is no template.
      { scheme: 'file', pattern: INFRASTRUCTURE_FILES },
    ],
    synchronize: {
      fileEvents: vscode.workspace.createFileSystemWatcher(
        // Templates and Serverless services too (*.yaml, *.yml, *.json, *.template), Terraform (*.tf): they name environment tables.
        '**/{*.ts,*.tsx,*.mts,*.cts,*.js,*.jsx,*.mjs,*.cjs,*.py,*.yaml,*.yml,*.json,*.template,*.tf,*.tfvars,pyproject.toml}',
      ),
    },
    outputChannel: output,
    // Rule docs links open the pages shipped in the VSIX (offline), not the web.
    // A fix applied from the light bulb also runs `shardlens.fix.applied` (the walkthrough's step).
    middleware: { ...ruleDocsMiddleware(), ...fixAppliedMiddleware() },
    // Read at each start: a restarted server learns the trust granted since. Untrusted
    // workspaces get no AWS calls (the server's rule; absent counts as untrusted). `askFix`: this
    // client asks a fix's questions (fix-ask.ts), so the server also offers the asking forms.
    initializationOptions: (): InitializationOptions => ({
      workspaceTrusted: vscode.workspace.isTrusted,
      askFix: true,
      // The analysis cache goes to this workspace's storage, not into the user's folders.
      cacheDir: (context.storageUri ?? context.globalStorageUri).fsPath,
    }),
  };

  const start = async () => {
    client = new LanguageClient('shardlens', 'ShardLens', serverOptions, clientOptions);
    client.onNotification(StatusNotification, (s: WorkspaceStatus) => {
      status.update(s);
      panel.workspaceStatus(s);
    });
    client.onNotification(HeatStatusNotification, onHeatStatus);
    // A page that asked while the server was down or starting is told again once it runs
    // (and when it stops): the view is often resolved before the first start ends.
    client.onDidChangeState((e) => {
      if (refreshesPages(e.newState)) panel.refresh('connection');
    });
    await client.start();
  };
  const restart = async () => {
    status.update(null);
    panel.workspaceStatus(null);
    await client?.stop().catch(() => undefined);
    await start();
  };

  // The side panel (webview view + editor tab); `openTab` is what `shardlens.openPanel` should call.
  const panel = registerPanel(context, () => client);
  context.subscriptions.push(...panel.disposables);
  // Each heat status: the status bar, the panel's data when it went stale (a background
  // refresh finished, the connection changed), and the one-time question for unmapped tables.
  const followStatus = statusFollower((reason) => panel.refresh(reason));
  const askTables = askOnce(context, () => client);
  const onHeatStatus = (s: HeatStatus) => {
    connection.update(s);
    followStatus(s);
    askTables(s);
  };
  context.subscriptions.push(
    output,
    status.item,
    connection.item,
    ...registerCommands({
      client: () => client,
      restart,
      output,
      extensionUri: context.extensionUri,
      panel,
      heatStatus: connection.current,
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(() => {
      if (client?.isRunning()) void client.sendNotification(TrustNotification, { trusted: true });
      connection.update(null);
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (['shardlens.aws', 'shardlens.heat', 'shardlens.tables'].some((s) => e.affectsConfiguration(s)))
        connection.update(null);
    }),
    vscode.commands.registerCommand(MAP_TABLES, () => mapTables(client, connection.current()?.unmapped ?? [])),
    registerFixApplied(),
    { dispose: () => void client?.stop() },
  );
  // The server starts in the background: activation returns at once.
  start().catch((e) => {
    status.update(null);
    output.error(`The language server failed to start: ${e instanceof Error ? e.message : String(e)}`);
  });
  const activationMs = Math.round((performance.now() - started) * 10) / 10;
  output.info(`ShardLens activated in ${activationMs} ms`);
  return { activationMs };
}

export async function deactivate(): Promise<void> {
  await client?.stop();
  client = null;
}
