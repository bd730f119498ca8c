// The quick fixes in VS Code: the default form of a fix is a WorkspaceEdit (one undo
// step restores the file exactly); the asking form runs `shardlens.fix.ask`, whose
// input box and quick picks are answered here by stubbing `vscode.window` (the
// extension shares this API object), then the server computes and applies the fix.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { codeOf, fileUri, shardlens, until } from './helpers';

const SCORES = 'leaderboard/src/scores.ts';

let scores: vscode.Uri;
let doc: vscode.TextDocument;
let original: string;

type Window = Record<string, (...args: unknown[]) => unknown>;
const win = vscode.window as unknown as Window;

/** Replaces `vscode.window[name]` for the duration of `fn`, recording the calls. */
async function stubbed<T>(stubs: Record<string, (...args: unknown[]) => unknown>, fn: () => Promise<T>) {
  const saved = Object.fromEntries(Object.keys(stubs).map((k) => [k, win[k]]));
  const calls: Array<{ name: string; args: unknown[] }> = [];
  for (const [k, f] of Object.entries(stubs)) {
    win[k] = (...args: unknown[]) => {
      calls.push({ name: k, args });
      return f(...args);
    };
  }
  try {
    return { result: await fn(), calls };
  } finally {
    Object.assign(win, saved);
  }
}

async function actionsAt(range: vscode.Range): Promise<vscode.CodeAction[]> {
  return (
    (await vscode.commands.executeCommand<vscode.CodeAction[]>(
      'vscode.executeCodeActionProvider',
      scores,
      range,
      vscode.CodeActionKind.QuickFix.value,
    )) ?? []
  );
}

function finding(rule: string, line: number): vscode.Diagnostic | undefined {
  return shardlens(scores).find((d) => codeOf(d) === rule && d.range.start.line === line);
}

/** The action whose title starts with `prefix`, asking (`…`) or not. */
function pick(actions: vscode.CodeAction[], prefix: string, asking: boolean): vscode.CodeAction {
  const a = actions.find((x) => x.title.startsWith(prefix) && x.title.endsWith('…') === asking);
  assert.ok(a, `no ${asking ? 'asking ' : ''}"${prefix}" among ${JSON.stringify(actions.map((x) => x.title))}`);
  return a;
}

/** Runs a code action's command as the light bulb would. */
function runCommand(a: vscode.CodeAction): Thenable<unknown> {
  assert.ok(a.command, `${a.title} has no command`);
  return vscode.commands.executeCommand(a.command.command, ...(a.command.arguments ?? []));
}

/** One `undo` in the editor of scores.ts must give back the text exactly. */
async function undoRestores(): Promise<void> {
  await vscode.window.showTextDocument(doc, { preview: false });
  await vscode.commands.executeCommand('undo');
  assert.equal(doc.getText(), original, 'one undo did not restore the file exactly');
}

describe('quick fixes in VS Code', function () {
  this.timeout(90_000);

  before(async () => {
    scores = fileUri(SCORES);
    doc = await vscode.workspace.openTextDocument(scores);
    await vscode.window.showTextDocument(doc, { preview: false });
    await until('SL001 on line 19', () => finding('SL001', 18), 90_000);
    original = doc.getText();
  });

  afterEach(async () => {
    // Whatever a failed test left, the next one starts from the file on disk.
    if (doc.getText() !== original) await vscode.commands.executeCommand('workbench.action.files.revert', scores);
    await until('the file as it was', () => doc.getText() === original);
  });

  it('"Add a random write-shard suffix" rewrites the key, clears SL001, and one undo restores the file', async () => {
    const d = finding('SL001', 18)!;
    const actions = await actionsAt(d.range);
    const fix = pick(actions, 'Add a random write-shard suffix', false);
    // scores.ts already writes BOARD#global#${shard} with BOARD_SHARDS: that constant is reused.
    assert.equal(fix.title, 'Add a random write-shard suffix (10 shards, BOARD_SHARDS)');
    assert.ok(fix.edit, 'the default form is an edit (previewable)');
    // After the edit VS Code runs the action's command: the no-op the walkthrough's "Apply a
    // fix" step completes on. An ignore comment is not a fix and runs nothing.
    assert.equal(fix.command?.command, 'shardlens.fix.applied');
    await vscode.commands.executeCommand(fix.command.command, ...(fix.command.arguments ?? []));
    assert.equal(actions.find((a) => a.title.startsWith('Ignore SL001'))?.command, undefined);
    assert.ok(await vscode.workspace.applyEdit(fix.edit));
    const expected = original.replace(
      "PK: 'BOARD#global', SK: `PLAYER#${playerId}`",
      'PK: `BOARD#global#${Math.floor(Math.random() * BOARD_SHARDS)}`, SK: `PLAYER#${playerId}`',
    );
    assert.notEqual(expected, original);
    assert.equal(doc.getText(), expected);
    await until('SL001 on line 19 to go away', () => !finding('SL001', 18));
    await undoRestores();
    await until('SL001 on line 19 to come back', () => finding('SL001', 18));
  });

  it('the asking form asks the shard count in an input box (suggested, validated) and writes that count', async () => {
    // FEED#recent: no constant to reuse, so the count is asked.
    const d = await until('SL001 on the feed key', () => finding('SL001', 74));
    const fix = pick(await actionsAt(d.range), 'Add a random write-shard suffix', true);
    const { calls } = await stubbed({ showInputBox: async () => '4' }, () => runCommand(fix) as Promise<unknown>);
    const box = calls.find((c) => c.name === 'showInputBox')!.args[0] as vscode.InputBoxOptions;
    assert.equal(box.value, '10', 'prefilled with the suggested count (shardlens.shards.defaultCount)');
    assert.equal(box.validateInput!('0'), 'Between 1 and 1000 shards.');
    assert.equal(box.validateInput!('7'), null);
    const text = doc.getText();
    assert.match(text, /const FEED_RECENT_SHARDS = 4;/);
    // In place the line would pass the project's 120 columns: the shard is computed before the put.
    assert.match(text, /const shard = Math\.floor\(Math\.random\(\) \* FEED_RECENT_SHARDS\);\n\s+await ddb\.send/);
    assert.match(text, /PK: `FEED#recent#\$\{shard\}`/);
    await until('SL001 on the feed key to go away', () => !finding('SL001', 74) && !finding('SL001', 75));
    await undoRestores();
  });

  it('Escape in the input box cancels the fix and edits nothing', async () => {
    const d = await until('SL001 on the feed key', () => finding('SL001', 74));
    const fix = pick(await actionsAt(d.range), 'Add a random write-shard suffix', true);
    const { result } = await stubbed(
      { showInputBox: async () => undefined },
      () => runCommand(fix) as Promise<unknown>,
    );
    assert.equal(result, undefined);
    assert.equal(doc.getText(), original);
    assert.equal(doc.isDirty, false);
  });

  it('the calculated suffix asks the attribute in a quick pick, then the count', async () => {
    const d = await until('SL001 on the feed key', () => finding('SL001', 74));
    const fix = pick(await actionsAt(d.range), 'Add a calculated shard suffix', true);
    const { calls } = await stubbed(
      {
        showQuickPick: async (items: unknown) => (items as vscode.QuickPickItem[]).find((i) => i.label === 'playerId'),
        showInputBox: async () => '8',
      },
      () => runCommand(fix) as Promise<unknown>,
    );
    assert.deepEqual(
      calls.map((c) => c.name),
      ['showQuickPick', 'showInputBox'],
      'the attribute first, then the count, as the fix lists its questions',
    );
    const offered = (calls[0].args[0] as vscode.QuickPickItem[]).map((i) => i.label);
    assert.deepEqual(offered, ['playerId']);
    const text = doc.getText();
    assert.match(text, /const FEED_RECENT_SHARDS = 8;/);
    assert.match(text, /shardlensHash\(String\(playerId\)\) % FEED_RECENT_SHARDS/);
    assert.match(text, /function shardlensHash\(value: string\): number/);
    await undoRestores();
  });

  it('"Generate the scatter-gather reader" beside the writer: a quick pick, then the reader, revealed', async () => {
    // The sharded writer of BOARD#global on line 30 offers its reader (no finding there).
    const line = 29;
    const col = doc.lineAt(line).text.indexOf('`BOARD#global#${shard}`');
    assert.ok(col > 0, doc.lineAt(line).text);
    const fix = pick(
      await actionsAt(new vscode.Range(line, col + 2, line, col + 2)),
      'Generate the scatter-gather reader',
      true,
    );
    const { calls } = await stubbed(
      { showQuickPick: async (items: unknown) => (items as vscode.QuickPickItem[])[0] },
      () => runCommand(fix) as Promise<unknown>,
    );
    const choices = (calls[0].args[0] as vscode.QuickPickItem[]).map((i) => `${i.label} ${i.description ?? ''}`.trim());
    assert.deepEqual(choices, [
      'Beside the writer leaderboard/src/scores.ts',
      'In an existing file…',
      'In a new file…',
    ]);
    const text = doc.getText();
    assert.match(text, /async function queryBoardGlobalShards\(/);
    assert.match(text, /Promise\.all/);
    const editor = vscode.window.activeTextEditor!;
    assert.equal(editor.document.uri.toString(), scores.toString());
    // The cursor lands where the reader was inserted (after the writer's closing brace), just above it.
    const lines = doc.getText().split('\n');
    const at = lines.findIndex((l) => l.includes('function queryBoardGlobalShards('));
    const cursor = editor.selection.active.line;
    assert.ok(cursor <= at && at - cursor <= 12, `the cursor (${cursor}) is not at the reader (${at})`);
    for (const l of lines.slice(cursor + 1, at)) {
      assert.match(
        l,
        /^\s*(\/\*\*|\*|$)/,
        `not the reader's doc comment: ${JSON.stringify(lines.slice(cursor, at + 1))}`,
      );
    }
    await undoRestores();
  });

  it('"Generate the scatter-gather reader" into a new file the user names', async () => {
    const line = 29;
    const col = doc.lineAt(line).text.indexOf('`BOARD#global#${shard}`');
    const fix = pick(
      await actionsAt(new vscode.Range(line, col + 2, line, col + 2)),
      'Generate the scatter-gather reader',
      true,
    );
    const target = fileUri('leaderboard/src/board-reader.ts');
    try {
      const { calls } = await stubbed(
        {
          showQuickPick: async (items: unknown) =>
            (items as vscode.QuickPickItem[]).find((i) => i.label === 'In a new file…'),
          showSaveDialog: async () => target,
        },
        () => runCommand(fix) as Promise<unknown>,
      );
      const dialog = calls.find((c) => c.name === 'showSaveDialog')!.args[0] as vscode.SaveDialogOptions;
      assert.match(dialog.defaultUri!.path, /\/leaderboard\/src\/scores-reader\.ts$/, 'proposed beside the writer');
      const reader = await vscode.workspace.openTextDocument(target);
      assert.match(reader.getText(), /export async function queryBoardGlobalShards\(/);
    } finally {
      // Revert before closing: closing a dirty editor would ask to save.
      for (const u of [target, scores]) await vscode.commands.executeCommand('workbench.action.files.revert', u);
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      await vscode.workspace.fs.delete(target).then(undefined, () => undefined);
      doc = await vscode.workspace.openTextDocument(scores);
      await vscode.window.showTextDocument(doc, { preview: false });
    }
  });

  it('"Generate the scatter-gather reader" into an existing file picked in the open dialog', async () => {
    const line = 29;
    const col = doc.lineAt(line).text.indexOf('`BOARD#global#${shard}`');
    const fix = pick(
      await actionsAt(new vscode.Range(line, col + 2, line, col + 2)),
      'Generate the scatter-gather reader',
      true,
    );
    const target = fileUri('leaderboard/src/top-players.ts');
    const before = (await vscode.workspace.openTextDocument(target)).getText();
    try {
      const { calls } = await stubbed(
        {
          showQuickPick: async (items: unknown) =>
            (items as vscode.QuickPickItem[]).find((i) => i.label === 'In an existing file…'),
          showOpenDialog: async () => [target],
        },
        () => runCommand(fix) as Promise<unknown>,
      );
      const dialog = calls.find((c) => c.name === 'showOpenDialog')!.args[0] as vscode.OpenDialogOptions;
      assert.deepEqual(dialog.filters, { '.ts files': ['ts'] }, 'files of the writer’s language');
      const reader = await vscode.workspace.openTextDocument(target);
      assert.ok(reader.getText().startsWith(before.slice(0, 40)), 'the file kept its own code');
      assert.match(reader.getText(), /export async function queryBoardGlobalShards\(/);
    } finally {
      for (const u of [target, scores]) await vscode.commands.executeCommand('workbench.action.files.revert', u);
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      doc = await vscode.workspace.openTextDocument(scores);
      await vscode.window.showTextDocument(doc, { preview: false });
    }
    assert.equal((await vscode.workspace.openTextDocument(target)).getText(), before);
  });
  it('"Generate a backfill script" writes the script into a new file and opens it', async () => {
    const d = finding('SL001', 18)!;
    const actions = await actionsAt(d.range);
    const backfill = pick(actions, 'Generate a backfill script', false);
    assert.equal(
      backfill.title,
      'Generate a backfill script: move items under "BOARD#global" to the random suffix\'s 10 shards',
    );
    const script = fileUri('leaderboard/src/scripts/backfill-board-global.mjs');
    // The command VS Code runs after the edit names the new file, which it opens.
    assert.deepEqual(backfill.command?.arguments, [script.toString()]);
    try {
      assert.ok(backfill.edit && (await vscode.workspace.applyEdit(backfill.edit)));
      await runCommand(backfill);
      const shown = vscode.window.activeTextEditor?.document;
      assert.equal(shown?.uri.toString(), script.toString(), 'the script is the active editor');
      assert.match(shown!.getText(), /^#!\/usr\/bin\/env node\n\/\/ Moves the items a table already holds/);
      assert.match(shown!.getText(), /\nconst BARE_KEY = 'BOARD#global';\n/);
      assert.match(shown!.getText(), /const SHARD_COUNT = 10;/);
      assert.equal(doc.getText(), original, 'the code itself is not changed');
    } finally {
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
      await vscode.workspace.fs.delete(script, { useTrash: false }).then(
        () => undefined,
        () => undefined,
      );
    }
  });
});
