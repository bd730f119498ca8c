/**
 * The extension's side of the panel: the webview view in the ShardLens activity-bar
 * container and the same page as an editor tab. It serves the bundle under a strict CSP
 * (html.ts) with local resources limited to dist/, validates every message from the page
 * (protocol/src/panel.ts), answers with the language server's `shardlens/keys` and
 * `shardlens/heat`, reveals call sites inside the workspace only, and tells the page
 * which key the editor's cursor is on.
 */
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { ExecuteCommandRequest } from 'vscode-languageclient/node';
import type { EnableInsightsResult } from '../../../protocol/src/commands';
import { HeatRequest, KeysRequest, type HeatResult, type HeatWindow } from '../../../protocol/src/heat';
import { parsePanelMessage, type HostMessage, type PanelMessage } from '../../../protocol/src/panel';
import type { JsonKeysReport } from '../../../protocol/src/report';
import { makeNonce, panelHtml } from './html';
import { keyAt } from './cursor';
import type { RefreshReason } from './freshness';
import { canAsk, NOT_RUNNING } from './server-state';
import { enableNotice, enableParams, enablingNotice } from './enable';
import { MAP_TABLES } from '../tables';

export const VIEW_ID = 'shardlens.panel';

/** The `shardlens.heat.window` setting, the window a page starts from and follows. */
const settingWindow = (): HeatWindow =>
  vscode.workspace.getConfiguration('shardlens.heat').get<HeatWindow>('window', '1h');

export interface PanelHost {
  /** Opens (or reveals) the panel as an editor tab. */
  openTab(): void;
  /**
   * Every open page gets the keys again and reads its key's heat afresh: forced (from AWS)
   * for the view-title button, without a reason; from the server's cache, which refetches
   * what is older than a minute, after a background refresh or a connection change.
   */
  refresh(reason?: RefreshReason): void;
  disposables: vscode.Disposable[];
}

export function registerPanel(context: vscode.ExtensionContext, client: () => LanguageClient | null): PanelHost {
  const pages = new Set<vscode.Webview>();
  let keys: JsonKeysReport | null = null;
  let tab: vscode.WebviewPanel | null = null;
  const dist = vscode.Uri.joinPath(context.extensionUri, 'dist');

  const post = (w: vscode.Webview, m: HostMessage) => void w.postMessage(m);
  const broadcast = (m: HostMessage) => pages.forEach((w) => post(w, m));
  // Starting counts: the page of a view resolved with the window asks before the server's
  // answer to `initialize`, and such a request waits for the start (server-state.ts).
  const running = () => {
    const c = client();
    return c && canAsk(c.state) ? c : null;
  };

  async function sendKeys(w: vscode.Webview) {
    const c = running();
    if (!c) return post(w, { type: 'keys', report: null, problem: NOT_RUNNING });
    try {
      keys = await c.sendRequest(KeysRequest, {});
      post(w, { type: 'keys', report: keys, problem: null });
    } catch (e) {
      post(w, { type: 'keys', report: null, problem: `The keys could not be listed: ${String(e)}` });
    }
  }

  async function reveal(file: string, line: number, column: number) {
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      const root = folder.uri.fsPath;
      const full = path.resolve(root, file);
      // Only files inside the workspace: the page's data must not open arbitrary paths.
      if (full !== root && !full.startsWith(root + path.sep)) continue;
      const pos = new vscode.Position(line - 1, column - 1);
      // Where the code is shown, not over the panel: the column of a visible editor, else
      // beside the panel (when the panel is an editor tab with no editor next to it).
      const target = vscode.window.visibleTextEditors[0]?.viewColumn ?? vscode.ViewColumn.Beside;
      await vscode.window.showTextDocument(vscode.Uri.file(full), {
        selection: new vscode.Range(pos, pos),
        preview: true,
        viewColumn: target,
      });
      return;
    }
    throw new Error(`${file} is not in the workspace`);
  }

  async function handle(w: vscode.Webview, m: PanelMessage) {
    switch (m.type) {
      case 'ready': {
        post(w, { type: 'window', window: settingWindow() });
        await sendKeys(w);
        // A page opened while the cursor already rests on a key starts on that key: the
        // selection events it follows come only when the cursor moves.
        const at = cursorKey(vscode.window.activeTextEditor ?? vscode.window.visibleTextEditors[0]);
        if (at) post(w, { type: 'cursor', logicalKey: at });
        return;
      }
      case 'refreshKeys':
        return sendKeys(w);
      case 'reveal':
        return reveal(m.file, m.line, m.column);
      case 'heat': {
        const c = running();
        let result: HeatResult;
        if (!c)
          result = {
            ok: false,
            problem: {
              code: 'server-not-running',
              message: NOT_RUNNING,
              command: null,
            },
          };
        else {
          try {
            result = await c.sendRequest(HeatRequest, {
              table: m.table,
              index: m.index,
              window: m.window,
              refresh: m.refresh,
            });
          } catch (e) {
            result = { ok: false, problem: { code: 'failed', message: String(e), command: null } };
          }
        }
        // The series travels beside the report (its JSON holds sums): the page draws it over time.
        const series = result.ok ? (result.series ?? null) : null;
        if (result.ok) result = { ok: true, report: result.report };
        return post(w, { type: 'heat', requestId: m.requestId, result, series });
      }
      case 'enableInsights': {
        const c = running();
        if (!c) throw new Error(NOT_RUNNING);
        const args = { table: m.table, index: m.index, mode: m.mode };
        post(w, { type: 'notice', ...enablingNotice(args) });
        // The server's command (it holds the connection, maps environment-named tables and
        // refreshes after); its answer, success or AWS's refusal, is the page's status line.
        const r = (await c.sendRequest(ExecuteCommandRequest.type, enableParams(args))) as EnableInsightsResult | null;
        return post(w, { type: 'notice', ...enableNotice(args, r) });
      }
      case 'mapTables':
        // The extension's command: it lists the account's tables and saves the choice.
        await vscode.commands.executeCommand(MAP_TABLES);
        return;
      case 'copy':
        await vscode.env.clipboard.writeText(m.text);
        return post(w, { type: 'notice', level: 'info', message: 'Copied.' });
      case 'insert': {
        const editor =
          vscode.window.visibleTextEditors.find((e) => e === vscode.window.activeTextEditor) ??
          vscode.window.visibleTextEditors[0];
        if (!editor) throw new Error('No editor to insert into: open a file and put the cursor where the code goes.');
        await editor.edit((b) => b.replace(editor.selection, m.text));
        return post(w, {
          type: 'notice',
          level: 'info',
          message: `Inserted into ${path.basename(editor.document.fileName)}.`,
        });
      }
    }
  }

  function setup(w: vscode.Webview): vscode.Disposable[] {
    w.options = { enableScripts: true, localResourceRoots: [dist] };
    w.html = panelHtml({
      cspSource: w.cspSource,
      nonce: makeNonce((n) => randomBytes(n)),
      scriptUri: w.asWebviewUri(vscode.Uri.joinPath(dist, 'webview.js')).toString(),
      styleUri: w.asWebviewUri(vscode.Uri.joinPath(dist, 'webview.css')).toString(),
    });
    pages.add(w);
    return [
      w.onDidReceiveMessage((raw: unknown) => {
        const m = parsePanelMessage(raw);
        if (!m) return; // not a message the page can send: dropped
        handle(w, m).catch((e: unknown) =>
          post(w, { type: 'notice', level: 'error', message: e instanceof Error ? e.message : String(e) }),
        );
      }),
      { dispose: () => pages.delete(w) },
    ];
  }

  /** The page's data again: its keys, and its key's heat (a hidden view's page is not kept). */
  function refreshPage(w: vscode.Webview, reason?: RefreshReason) {
    void sendKeys(w);
    post(w, reason ? { type: 'refresh', reason } : { type: 'refresh' });
  }

  const provider: vscode.WebviewViewProvider = {
    resolveWebviewView(view) {
      const subs = setup(view.webview);
      // Shown again after being hidden: what changed meanwhile is read now, not on Refresh.
      const shown = view.onDidChangeVisibility(() => {
        if (view.visible) refreshPage(view.webview, 'visible');
      });
      view.onDidDispose(() => [...subs, shown].forEach((d) => d.dispose()));
    },
  };

  /** The logical key under an editor's cursor, from the last keys report; undefined when none is known. */
  function cursorKey(editor: vscode.TextEditor | undefined): string | null | undefined {
    if (!editor || !keys) return undefined;
    const folder = vscode.workspace.getWorkspaceFolder(editor.document.uri);
    if (!folder) return undefined;
    const rel = path.relative(folder.uri.fsPath, editor.document.uri.fsPath).split(path.sep).join('/');
    const p = editor.selection.active;
    return keyAt(keys, rel, p.line + 1, p.character + 1);
  }

  // The key under the cursor, debounced: selection events come on every keystroke.
  let timer: NodeJS.Timeout | undefined;
  const follow = vscode.window.onDidChangeTextEditorSelection((e) => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (pages.size === 0) return;
      const at = cursorKey(e.textEditor);
      if (at !== undefined) broadcast({ type: 'cursor', logicalKey: at });
    }, 150);
  });

  // The page follows the setting's window when it changes.
  const windowSetting = vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration('shardlens.heat.window')) broadcast({ type: 'window', window: settingWindow() });
  });

  return {
    refresh(reason?: RefreshReason) {
      for (const w of pages) refreshPage(w, reason);
    },
    openTab() {
      if (tab) return tab.reveal();
      tab = vscode.window.createWebviewPanel('shardlens.panelTab', 'ShardLens', vscode.ViewColumn.Beside, {
        enableScripts: true,
        localResourceRoots: [dist],
        retainContextWhenHidden: false,
      });
      const subs = setup(tab.webview);
      const page = tab;
      subs.push(
        page.onDidChangeViewState((e) => {
          if (e.webviewPanel.visible) refreshPage(page.webview, 'visible');
        }),
      );
      tab.onDidDispose(() => {
        subs.forEach((d) => d.dispose());
        tab = null;
      });
    },
    disposables: [
      vscode.window.registerWebviewViewProvider(VIEW_ID, provider),
      follow,
      windowSetting,
      { dispose: () => clearTimeout(timer) },
    ],
  };
}
