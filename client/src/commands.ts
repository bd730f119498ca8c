import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { ExecuteCommandRequest } from 'vscode-languageclient/node';
import {
  Commands,
  type EnableInsightsArgs,
  type EnableInsightsResult,
  type ShowKeyArgs,
} from '../../protocol/src/commands';
import { checkSummary, CheckWorkspaceRequest, type HeatStatus } from '../../protocol/src/lsp';
import { SELECT_CONNECTION, selectConnection } from './connection';
import { askAndApplyFix } from './fix-ask';
import { openRuleDocs } from './rule-docs';

/** What the commands act on; `client` is null while the server is down. */
export interface Context {
  client(): LanguageClient | null;
  restart(): Promise<void>;
  output: vscode.LogOutputChannel;
  /** Where the extension is installed: the rule docs it ships are read from there. */
  extensionUri: vscode.Uri;
  /** The side panel, once it is registered: `openTab` opens it, `showKey` selects a key in it, `refresh` reloads it. */
  panel?: { openTab(): void; showKey?(args: ShowKeyArgs): void; refresh?(): void };
  /** The server's last live-heat status (for the connection pick). */
  heatStatus?: () => HeatStatus | null;
}

type Factory = (ctx: Context) => (...args: unknown[]) => unknown;

function needsServer(ctx: Context): LanguageClient {
  const client = ctx.client();
  if (!client?.isRunning())
    throw new Error('The ShardLens language server is not running. Run "ShardLens: Restart Language Server".');
  return client;
}

/** Every command of the extension, registered from this one table at activation. */
export const COMMANDS: Record<string, Factory> = {
  [Commands.checkWorkspace]: (ctx) => async () => {
    const client = needsServer(ctx);
    // A notification with a spinner while it runs, then what it found: the command is
    // otherwise silent for as long as indexing takes.
    const r = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: 'ShardLens: checking the workspace…' },
      () => client.sendRequest(CheckWorkspaceRequest),
    );
    const summary = checkSummary(r);
    ctx.output.info(summary);
    for (const s of r.skipped) ctx.output.info(`  skipped ${s.file}: ${s.reason}`);
    const total = r.errors + r.warnings + r.infos;
    // Not awaited: the command is done once the message is shown, not when it is dismissed.
    void (total > 0 ? vscode.window.showWarningMessage(summary) : vscode.window.showInformationMessage(summary));
    return r;
  },
  [Commands.restartServer]: (ctx) => () => ctx.restart(),
  [Commands.showOutput]: (ctx) => () => ctx.output.show(true),
  [Commands.openPanel]: (ctx) => () => {
    if (ctx.panel) return ctx.panel.openTab();
    // Not awaited: the command is done once the message is shown, not when it is dismissed.
    void vscode.window.showInformationMessage(
      'The ShardLens key heat panel (live Contributor Insights data) is not available in this version yet.',
    );
  },
  [Commands.askFix]: (ctx) => (args: unknown) => askAndApplyFix(needsServer(ctx), args),
  [Commands.showKey]: (ctx) => (args: unknown) => showKey(ctx, args as ShowKeyArgs),
  [SELECT_CONNECTION]: (ctx) => () =>
    selectConnection(
      () => refreshHeat(ctx),
      ctx.heatStatus?.() ?? null,
      (args) => enableInsights(ctx, args),
    ),
  // A rule id or the server's web link: either opens the page shipped in the VSIX, offline.
  [Commands.openRuleDocs]: (ctx) => (target: unknown) => openRuleDocs(ctx.extensionUri, target),
  [Commands.panelRefresh]: (ctx) => () => ctx.panel?.refresh?.(),
};

/** The server's refresh (a server command, so sent as workspace/executeCommand rather than registered here). */
export function refreshHeat(ctx: Context): Promise<unknown> {
  return needsServer(ctx).sendRequest(ExecuteCommandRequest.type, { command: Commands.refreshHeat, arguments: [] });
}

/** Switches Contributor Insights on through the server (which holds the connection), and says how it went. */
export async function enableInsights(ctx: Context, args: EnableInsightsArgs): Promise<EnableInsightsResult> {
  const r = (await needsServer(ctx).sendRequest(ExecuteCommandRequest.type, {
    command: Commands.enableInsights,
    arguments: [args],
  })) as EnableInsightsResult;
  const where = args.index ? `${args.table}/${args.index}` : args.table;
  if (r?.ok)
    void vscode.window.showInformationMessage(
      `ShardLens: Contributor Insights (${args.mode}) is being enabled on ${where}.`,
    );
  else
    void vscode.window.showWarningMessage(
      `ShardLens: Contributor Insights was not enabled on ${where}: ${r?.message ?? 'no answer'}`,
    );
  return r;
}

/** The code lens's click: the key in the panel when there is one, else the hover at the key. */
async function showKey(ctx: Context, args: ShowKeyArgs): Promise<void> {
  if (!args || typeof args.uri !== 'string' || !args.range) throw new Error('No key given.');
  if (ctx.panel?.showKey) return ctx.panel.showKey(args);
  const r = args.range;
  const at = new vscode.Position(r.start.line, r.start.character);
  const editor = await vscode.window.showTextDocument(vscode.Uri.parse(args.uri), {
    selection: new vscode.Range(at, at),
    preserveFocus: false,
  });
  editor.revealRange(new vscode.Range(at, at), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  await vscode.commands.executeCommand('editor.action.showHover');
}

export function registerCommands(ctx: Context): vscode.Disposable[] {
  return Object.entries(COMMANDS).map(([id, make]) => {
    const run = make(ctx);
    return vscode.commands.registerCommand(id, async (...args: unknown[]) => {
      try {
        return await run(...args);
      } catch (e) {
        const message = e instanceof Error ? e.message : String(e);
        ctx.output.appendLine(`${id}: ${message}`);
        void vscode.window.showErrorMessage(`ShardLens: ${message}`);
        return undefined;
      }
    });
  });
}
