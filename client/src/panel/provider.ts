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
import type { WorkspaceStatus } from '../../../protocol/src/lsp';
import type { JsonKeysReport } from '../../../protocol/src/report';
import { makeNonce, panelHtml } from './html';
import { keyAt } from './cursor';
import { keysReady, type RefreshReason } from './freshness';
import { canAsk, NOT_RUNNING } from './server-state';
import { enableNotice, enableParams, enablingNotice } from './enable';
import { MAP_TABLES } from '../tables';

export const VIEW_ID = 'shardlens.panel';
const INDEXING = 'Indexing the workspace: its keys are listed when the index is done…';

const keyCount = (r: JsonKeysReport) =>
  r.tables.reduce((n, t) => n + t.indexes.reduce((m, ix) => m + ix.keys.length, 0), 0);

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
  /**
   * Each `shardlens/status`: when an index is done, every open page gets the keys again (with
   * live heat off no heat status would ever refresh a page that asked during the index).
   */
  workspaceStatus(s: WorkspaceStatus | null): void;
  disposables: vscode.Disposable[];
}

export function registerPanel(context: vscode.ExtensionContext, client: () => LanguageClient | null): PanelHost {
  const pages = new Set<vscode.Webview>();
  /** Pages opened and not yet told the key under the cursor (sendKeys tells them). */
  const startsOnCursor = new Set<vscode.Webview>();
  let keys: JsonKeysReport | null = null;
  /** The language server's last status said it is indexing (it starts so). */
  let indexing = true;
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
      // Asked while the first index runs, the server knows no key yet: "no keys in this
      // workspace" would be wrong, and the page gets them again when the index is done.
      if (indexing && keyCount(keys) === 0) post(w, { type: 'keys', report: null, problem: INDEXING });
      else post(w, { type: 'keys', report: keys, problem: null });
    } catch (e) {
      post(w, { type: 'keys', report: null, problem: `The keys could not be listed: ${String(e)}` });
      return;
    }
    // A page opened while the cursor rests on a key starts on that key, once a keys report
    // knows it: the selection events it follows come only when the cursor moves, and a
    // page opened during the index gets the cursor's key only with a later report.
    if (!startsOnCursor.has(w)) return;
    const at = cursorKey(vscode.window.activeTextEditor ?? vscode.window.visibleTextEditors[0]);
    if (!at) return;
    startsOnCursor.delete(w);
    post(w, { type: 'cursor', logicalKey: at });
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
      case 'ready':
        post(w, { type: 'window', window: settingWindow() });
        startsOnCursor.add(w);
        return sendKeys(w);
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
      {
        dispose: () => {
          pages.delete(w);
          startsOnCursor.delete(w);
        },
      },
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
      if (at === undefined) return;
      startsOnCursor.clear(); // the pages follow the cursor from here on
      broadcast({ type: 'cursor', logicalKey: at });
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
    workspaceStatus(s) {
      const done = keysReady(indexing, s);
      indexing = s?.indexing ?? true; // a server started again indexes again
      if (done) for (const w of pages) void sendKeys(w);
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
