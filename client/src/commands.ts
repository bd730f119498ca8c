import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { Commands } from '../../protocol/src/commands';
import { CheckWorkspaceRequest } from '../../protocol/src/lsp';

/** What the commands act on; `client` is null while the server is down. */
export interface Context {
  client(): LanguageClient | null;
  restart(): Promise<void>;
  output: vscode.OutputChannel;
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
    return vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: 'ShardLens: checking workspace' },
      async () => {
        const r = await client.sendRequest(CheckWorkspaceRequest);
        ctx.output.appendLine(
          `Checked ${r.files} files in ${r.durationMs} ms: ${r.errors} errors, ${r.warnings} warnings, ${r.infos} info.`,
        );
        for (const s of r.skipped) ctx.output.appendLine(`  skipped ${s.file}: ${s.reason}`);
        return r;
      },
    );
  },
  [Commands.restartServer]: (ctx) => () => ctx.restart(),
  [Commands.showOutput]: (ctx) => () => ctx.output.show(true),
  [Commands.openPanel]: () => () => {
    // Not awaited: the command is done once the message is shown, not when it is dismissed.
    void vscode.window.showInformationMessage(
      'The ShardLens key heat panel (live Contributor Insights data) is not available in this version yet.',
    );
  },
  [Commands.openRuleDocs]: () => (url: unknown) => {
    if (typeof url !== 'string' || !/^https:\/\//.test(url)) throw new Error('No rule documentation link given.');
    return vscode.env.openExternal(vscode.Uri.parse(url));
  },
};

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
