// Runs inside the VS Code extension host with ShardLens loaded from the repository
// (extensionDevelopmentPath) and a temp copy of examples/ as the workspace.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  EXTENSION_ID,
  codeOf,
  counts,
  fileUri,
  hoverTexts,
  setSetting,
  shardlens,
  shardlensHover,
  until,
  workspaceRoot,
} from './helpers';

const SCORES = 'leaderboard/src/scores.ts';
const SL001_MESSAGE =
  'Partition key "BOARD#global" on table "leaderboard" is a constant: all writes of it hit one partition, ' +
  'capped at 1,000 WCU/s. Add a shard suffix (e.g. "BOARD#global#<0..N-1>") and read by querying every shard.';
const TOTAL = { errors: 5, warnings: 7, infos: 2, total: 14 };

let scores: vscode.Uri;
let doc: vscode.TextDocument;
/** Line 19 (0-based 18) and a position inside `'BOARD#global'`. */
let boardPos: vscode.Position;

const sl001OnBoard = () => shardlens(scores).find((d) => codeOf(d) === 'SL001' && d.range.start.line === 18);
const workspaceTotal = () => counts(shardlens()).total;

describe('ShardLens extension', function () {
  before(async function () {
    this.timeout(120_000);
    scores = fileUri(SCORES);
    doc = await vscode.workspace.openTextDocument(scores); // activates the extension (onLanguage:typescript)
    await vscode.window.showTextDocument(doc);
    const col = doc.lineAt(18).text.indexOf("'BOARD#global'");
    assert.ok(col >= 0, `line 19 of ${SCORES} no longer holds 'BOARD#global': ${doc.lineAt(18).text}`);
    boardPos = new vscode.Position(18, col + 3);
    await until('the extension to activate', () => vscode.extensions.getExtension(EXTENSION_ID)?.isActive);
    await until('the 14 workspace findings', () => workspaceTotal() === TOTAL.total, 90_000);
  });

  it('is installed and active on a TypeScript file', () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `${EXTENSION_ID} is not installed`);
    assert.equal(ext.isActive, true);
    assert.equal(ext.packageJSON.name, 'shardlens');
  });

  it('registers its commands', async () => {
    const all = new Set(await vscode.commands.getCommands(true));
    for (const c of [
      'shardlens.checkWorkspace',
      'shardlens.restartServer',
      'shardlens.showOutput',
      'shardlens.openPanel',
      'shardlens.fix.ask',
      'shardlens.heat.showKey',
      'shardlens.selectConnection',
    ]) {
      assert.ok(all.has(c), `command ${c} is not registered`);
    }
  });

  it('publishes the workspace findings: 14 (5 errors, 7 warnings, 2 info)', () => {
    assert.deepEqual(counts(shardlens()), TOTAL);
    const files = new Set(
      vscode.languages
        .getDiagnostics()
        .filter(([, ds]) => ds.some((d) => d.source === 'shardlens'))
        .map(([u]) => path.relative(workspaceRoot().fsPath, u.fsPath).split(path.sep).join('/')),
    );
    assert.deepEqual([...files].sort(), [
      'event-log/py/events.py',
      'event-log/src/events.ts',
      'leaderboard/py/leaderboard.py',
      'leaderboard/src/match-ids.ts',
      'leaderboard/src/scores.ts',
      'leaderboard/src/top-players.ts',
    ]);
  });

  it('reports SL001 on scores.ts line 19 with the CLI message, source and docs link', () => {
    const d = sl001OnBoard();
    assert.ok(
      d,
      `no SL001 on line 19; scores.ts has: ${shardlens(scores).map((x) => `${x.range.start.line + 1} ${codeOf(x)}`)}`,
    );
    assert.equal(d.source, 'shardlens');
    assert.equal(d.message, SL001_MESSAGE);
    assert.equal(d.severity, vscode.DiagnosticSeverity.Error);
    assert.equal(d.range.start.character, 18); // the CLI's 19:19, 1-based
    assert.equal(doc.getText(d.range), "'BOARD#global'", 'the range is the key expression, not the whole call');
    assert.ok(typeof d.code === 'object' && d.code !== null, 'code should be { value, target }');
    assert.equal(d.code.value, 'SL001');
    // The server's web link, pointed by the client at the page shipped in the extension (offline).
    assert.equal(d.code.target.scheme, 'command');
    assert.equal(d.code.target.path, 'shardlens.openRuleDocs');
    assert.deepEqual(JSON.parse(d.code.target.query), ['SL001']);
    assert.deepEqual(
      shardlens(scores)
        .map((x) => `${x.range.start.line + 1} ${codeOf(x)}`)
        .sort(),
      ['19 SL001', '75 SL001', '75 SL005', '85 SL003'],
    );
  });

  it('gives the same findings as `shardlens check` on the same folder', function () {
    const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
    const cli = path.join(ext.extensionPath, 'bin', 'shardlens.js');
    if (!fs.existsSync(cli)) this.skip(); // an installed VSIX carries no CLI
    const out = execFileSync(process.execPath, [cli, 'check', '.', '--format', 'json', '--fail-on', 'never'], {
      cwd: workspaceRoot().fsPath,
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
      encoding: 'utf8',
    });
    const report = JSON.parse(out) as {
      findings: Array<{ file: string; line: number; column: number; rule: string; severity: string; message: string }>;
    };
    const sev = {
      [vscode.DiagnosticSeverity.Error]: 'error',
      [vscode.DiagnosticSeverity.Warning]: 'warning',
    } as Record<number, string>;
    const fromCli = report.findings.map((f) => `${f.file}:${f.line}:${f.column} ${f.severity} ${f.rule} ${f.message}`);
    const fromEditor = vscode.languages.getDiagnostics().flatMap(([u, ds]) =>
      ds
        .filter((d) => d.source === 'shardlens')
        .map((d) => {
          const rel = path.relative(workspaceRoot().fsPath, u.fsPath).split(path.sep).join('/');
          const s = sev[d.severity] ?? 'info';
          return `${rel}:${d.range.start.line + 1}:${d.range.start.character + 1} ${s} ${codeOf(d)} ${d.message}`;
        }),
    );
    assert.deepEqual(fromEditor.sort(), fromCli.sort());
  });

  it('shows the ShardLens hover on the key expression', async () => {
    const md = await until('the ShardLens hover', () => shardlensHover(scores, boardPos), 15_000).catch(async (e) => {
      throw new Error(`${e.message}\nhovers seen: ${JSON.stringify(await hoverTexts(scores, boardPos))}`);
    });
    assert.ok(md.startsWith('**ShardLens**'));
    assert.ok(md.includes('BOARD#global'), md);
    assert.ok(md.includes('1,000 WCU/s'), md);
  });

  it('offers the quick fixes for SL001 and the ignore fix inserts the comment above', async () => {
    const d = sl001OnBoard()!;
    const actions =
      (await vscode.commands.executeCommand<vscode.CodeAction[]>(
        'vscode.executeCodeActionProvider',
        scores,
        d.range,
        vscode.CodeActionKind.QuickFix.value,
      )) ?? [];
    const titles = actions.map((a) => a.title);
    assert.ok(titles.includes('Ignore SL001 on this line'), `quick fixes offered: ${JSON.stringify(titles)}`);
    assert.ok(titles.includes('Open documentation for SL001'), `quick fixes offered: ${JSON.stringify(titles)}`);

    const ignore = actions.find((a) => a.title === 'Ignore SL001 on this line')!;
    assert.ok(ignore.edit, 'the ignore fix carries no edit');
    assert.ok(await vscode.workspace.applyEdit(ignore.edit));
    try {
      assert.equal(doc.lineAt(18).text, '      // shardlens-ignore SL001');
      assert.match(doc.lineAt(19).text, /PK: 'BOARD#global'/);
      await until('SL001 on the ignored line to go away', () =>
        shardlens(scores).every((x) => !(codeOf(x) === 'SL001' && x.range.start.line === 19)),
      );
    } finally {
      await vscode.commands.executeCommand('workbench.action.files.revert', scores);
    }
    await until('the SL001 to come back after the revert', () => sl001OnBoard());
  });

  it('offers the quick fixes with the cursor on the line but outside the finding', async () => {
    // VS Code sends no diagnostic for an empty range outside every squiggle: the server finds the finding itself.
    const titles = (
      (await vscode.commands.executeCommand<vscode.CodeAction[]>(
        'vscode.executeCodeActionProvider',
        scores,
        new vscode.Range(18, 0, 18, 0),
        vscode.CodeActionKind.QuickFix.value,
      )) ?? []
    ).map((a) => a.title);
    assert.ok(titles.includes('Ignore SL001 on this line'), `quick fixes offered: ${JSON.stringify(titles)}`);
  });

  it('does not offer source.fixAll.shardlens: no fix is safe to apply unasked (docs/fixes.md)', async () => {
    const ask = (kind: string) =>
      vscode.commands.executeCommand<vscode.CodeAction[]>(
        'vscode.executeCodeActionProvider',
        scores,
        new vscode.Range(0, 0, doc.lineCount, 0),
        kind,
      );
    assert.deepEqual(
      ((await ask('source.fixAll.shardlens')) ?? []).map((a) => a.title),
      [],
    );
    // The quick fixes of the same range are there: the empty answer is fix-all's own.
    const quick = (await ask(vscode.CodeActionKind.QuickFix.value)) ?? [];
    assert.ok(quick.some((a) => a.title.startsWith('Add a random write-shard suffix')));
  });

  it('runs "Check Workspace" and reports the counts, in a message with them', async () => {
    // The extension shares this `vscode.window`: record the message it shows.
    const window = vscode.window as unknown as { showWarningMessage: (...args: unknown[]) => unknown };
    const original = window.showWarningMessage;
    const shown: string[] = [];
    window.showWarningMessage = async (message: unknown) => {
      shown.push(String(message));
      return undefined;
    };
    let r: { errors: number; warnings: number; infos: number } | undefined;
    try {
      r = await vscode.commands.executeCommand('shardlens.checkWorkspace');
    } finally {
      window.showWarningMessage = original;
    }
    assert.deepEqual(shown.length, 1, JSON.stringify(shown));
    assert.match(shown[0], /^ShardLens checked \d+ files in [\d.]+ s: 5 errors, 7 warnings, 2 info\.$/);
    assert.ok(r, 'shardlens.checkWorkspace returned nothing (it shows an error message when the request fails)');
    assert.deepEqual({ errors: r.errors, warnings: r.warnings, infos: r.infos }, { errors: 5, warnings: 7, infos: 2 });
    assert.deepEqual(counts(shardlens()), TOTAL);
  });

  it('"Open documentation" opens the rule page shipped in the extension, in the Markdown preview', async () => {
    const isPreview = (t: vscode.Tab) =>
      t.input instanceof vscode.TabInputWebview && /markdown\.preview/.test(t.input.viewType);
    const previews = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter(isPreview);
    // As the quick fix sends it: the server's web link, which the client maps to the bundled page.
    await vscode.commands.executeCommand(
      'shardlens.openRuleDocs',
      'https://github.com/shardlens/shardlens/blob/main/docs/rules/SL001.md',
    );
    await until('the Markdown preview of SL001', () => previews().some((t) => /SL001/.test(t.label)), 15_000);
    await vscode.window.tabGroups.close(previews());
    await vscode.window.showTextDocument(doc, { preview: false });
  });

  it('"Show Output" shows the ShardLens output channel and keeps the focus in the editor', async () => {
    const isOutput = (e: vscode.TextEditor) =>
      e.document.uri.scheme === 'output' && /ShardLens$/.test(e.document.uri.path);
    await vscode.commands.executeCommand('workbench.action.closePanel');
    await until('the output panel to close', () => !vscode.window.visibleTextEditors.some(isOutput));
    await vscode.commands.executeCommand('shardlens.showOutput');
    await until('the ShardLens output channel to be visible', () => vscode.window.visibleTextEditors.some(isOutput));
    assert.equal(vscode.window.activeTextEditor?.document.uri.toString(), scores.toString(), 'focus left the editor');
  });

  it('"Open Key Heat Panel" opens the panel as an editor tab', async () => {
    const isPanel = (t: vscode.Tab) =>
      t.input instanceof vscode.TabInputWebview && t.input.viewType.includes('shardlens.panelTab');
    const panelTabs = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter(isPanel);
    assert.equal(panelTabs().length, 0, 'the panel tab is open before the command');
    await vscode.commands.executeCommand('shardlens.openPanel');
    await until('the ShardLens panel tab', () => panelTabs().length === 1, 15_000);
    assert.equal(panelTabs()[0].label, 'ShardLens');
    await vscode.window.tabGroups.close(panelTabs());
    await vscode.window.showTextDocument(doc, { preview: false });
  });

  it('"Refresh Live Heat" is the server\'s command and answers with the heat status (off: no connection set)', async () => {
    // Registered by the language client from the server's executeCommandProvider.
    const status = await until('shardlens.heat.refresh to answer', async () =>
      vscode.commands.executeCommand<{ state: string; label: string | null; problem: unknown }>(
        'shardlens.heat.refresh',
      ),
    );
    assert.equal(status.state, 'off');
    assert.equal(status.label, null);
    assert.equal(status.problem, null);
  });

  it('shows the live-heat connection in the status bar (off until a profile, region or endpoint is set)', async () => {
    // The connection item has no API to read back: the command it runs is registered and
    // the pick it opens lists the lab endpoint (stubbed to record, not to choose).
    const window = vscode.window as unknown as { showQuickPick: (...args: unknown[]) => unknown };
    const original = window.showQuickPick;
    const picks: vscode.QuickPickItem[][] = [];
    window.showQuickPick = async (items: unknown) => {
      picks.push(items as vscode.QuickPickItem[]);
      return undefined;
    };
    try {
      await vscode.commands.executeCommand('shardlens.selectConnection');
    } finally {
      window.showQuickPick = original;
    }
    assert.equal(picks.length, 1);
    const labels = picks[0].map((i) => i.label);
    assert.ok(labels.includes('$(refresh) Refresh live heat'), JSON.stringify(labels));
    assert.ok(
      labels.some((l) => l.includes('The ShardLens lab at http://127.0.0.1:8000')),
      JSON.stringify(labels),
    );
    assert.equal(vscode.workspace.getConfiguration('shardlens.aws').get('endpoint'), '', 'nothing was chosen');
  });

  it('restarts the language server and gets the diagnostics back', async function () {
    this.timeout(90_000);
    await vscode.commands.executeCommand('shardlens.restartServer');
    await until('the 14 findings after a restart', () => workspaceTotal() === TOTAL.total, 60_000);
    await until('the hover after a restart', () => shardlensHover(scores, boardPos));
  });

  describe('settings, applied live', () => {
    afterEach(async () => {
      for (const k of ['rules', 'enable', 'exclude', 'shards.peakWriteUnits', 'shards.defaultCount']) {
        if (vscode.workspace.getConfiguration('shardlens').inspect(k)?.workspaceValue !== undefined) {
          await setSetting(k, undefined);
        }
      }
      await until('the 14 findings after restoring the settings', () => workspaceTotal() === TOTAL.total);
    });

    it('shardlens.rules { SL001: "off" } removes the SL001 diagnostics, and they come back', async () => {
      await setSetting('rules', { SL001: 'off' });
      await until('SL001 to disappear', () => shardlens().every((d) => codeOf(d) !== 'SL001'));
      assert.equal(sl001OnBoard(), undefined);
      assert.deepEqual(counts(shardlens()), { errors: 2, warnings: 7, infos: 2, total: 11 });
      await setSetting('rules', undefined);
      await until('SL001 to come back', () => sl001OnBoard());
    });

    it('shardlens.rules { SL003: "error" } changes the severity', async () => {
      await setSetting('rules', { SL003: 'error' });
      await until('SL003 as errors', () =>
        shardlens()
          .filter((d) => codeOf(d) === 'SL003')
          .every((d) => d.severity === vscode.DiagnosticSeverity.Error),
      );
      assert.deepEqual(counts(shardlens()), { errors: 8, warnings: 4, infos: 2, total: 14 });
    });

    it('shardlens.enable false clears every diagnostic', async () => {
      await setSetting('enable', false);
      await until('no ShardLens diagnostics', () => shardlens().length === 0);
    });

    it('shardlens.exclude drops the excluded files', async () => {
      await setSetting('exclude', ['**/py/**']);
      await until('no findings in Python files', () => {
        const ds = vscode.languages
          .getDiagnostics()
          .filter(([u, d]) => u.fsPath.endsWith('.py') && d.some((x) => x.source === 'shardlens'));
        return ds.length === 0;
      });
      assert.equal(shardlens(scores).length, 4, 'scores.ts keeps its findings');
      assert.ok(workspaceTotal() < TOTAL.total);
    });

    it('shardlens.shards.peakWriteUnits adds the shard suggestion to the hover', async () => {
      await setSetting('shards.peakWriteUnits', 4000);
      const md = await until('a hover naming the 4,000 WCU/s peak', async () => {
        const h = await shardlensHover(scores, boardPos);
        return h?.includes('4,000') ? h : undefined;
      });
      assert.match(md, /5 shards/); // ceil(4000 / 800)
    });
  });
});
