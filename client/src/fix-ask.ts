/**
 * The command form of a fix: the code action "… (choose the shard count)" runs
 * `shardlens.fix.ask` with the fix's questions; this asks them the VS Code way (an
 * input box for a number, a quick pick for a choice), in order, then asks the
 * language server to compute the fix with the answers and apply it as one
 * WorkspaceEdit (`shardlens.fix.apply`, which sends `workspace/applyEdit`: one undo
 * step). Escape at any question cancels the whole fix and edits nothing.
 */
import path from 'node:path';
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { ExecuteCommandRequest } from 'vscode-languageclient/node';
import {
  Commands,
  type ApplyFixArgs,
  type ApplyFixResult,
  type AskFixArgs,
  type FixAnswers,
  type FixQuestion,
} from '../../protocol/src/commands';

/** The largest shard count a fix writes: a sanity bound, far above any real key's need. */
export const MAX_SHARDS = 1000;

/** Null when `text` is a whole number 1..MAX_SHARDS; else the message the input box shows. */
export function shardCountError(text: string): string | null {
  const t = text.trim();
  if (!/^\d+$/.test(t)) return 'A whole number of shards, e.g. 10.';
  const n = Number(t);
  if (n < 1 || n > MAX_SHARDS) return `Between 1 and ${MAX_SHARDS} shards.`;
  return null;
}

/** Whether the arguments a code action passed look like AskFixArgs (they come from the server, but check). */
export function isAskFixArgs(a: unknown): a is AskFixArgs {
  const x = a as Partial<AskFixArgs> | null;
  return (
    !!x &&
    typeof x.uri === 'string' &&
    typeof x.fixId === 'string' &&
    typeof x.title === 'string' &&
    !!x.range &&
    Array.isArray(x.questions)
  );
}

/** Where a generated reader goes, in the words of the quick pick. */
type ReaderChoice = vscode.QuickPickItem & { pick: 'beside' | 'existing' | 'new' };

async function askOne(q: FixQuestion, title: string, writer: vscode.Uri): Promise<FixAnswers | undefined> {
  switch (q.kind) {
    case 'shard-count': {
      const text = await vscode.window.showInputBox({
        title,
        prompt: `How many write shards? Suggested: ${q.suggested} (ceil of the peak write units / 800, or shardlens.shards.defaultCount).`,
        value: String(q.suggested),
        validateInput: shardCountError,
        ignoreFocusOut: true,
      });
      return text === undefined ? undefined : { shardCount: Number(text.trim()) };
    }
    case 'hash-attribute': {
      const items = q.options.map((o, i) => ({ label: o, description: i === 0 ? 'suggested' : undefined }));
      const pick = await vscode.window.showQuickPick(items, {
        title,
        placeHolder: 'The attribute whose hash picks the shard (each item keeps one shard, readable directly)',
        ignoreFocusOut: true,
      });
      return pick ? { hashAttribute: pick.label } : undefined;
    }
    case 'reader-file': {
      const suggested = vscode.Uri.parse(q.suggested);
      const items: ReaderChoice[] = [
        {
          label: 'Beside the writer',
          description: vscode.workspace.asRelativePath(suggested),
          pick: 'beside',
        },
        { label: 'In an existing file…', pick: 'existing' },
        { label: 'In a new file…', pick: 'new' },
      ];
      const pick = await vscode.window.showQuickPick(items, {
        title,
        placeHolder: 'Where to write the scatter-gather reader',
        ignoreFocusOut: true,
      });
      if (!pick) return undefined;
      if (pick.pick === 'beside') return { readerFile: suggested.toString() };
      const ext = path.extname(writer.path).slice(1);
      const filters = ext ? { [`.${ext} files`]: [ext] } : undefined;
      const folder = vscode.Uri.joinPath(writer, '..');
      if (pick.pick === 'existing') {
        const files = await vscode.window.showOpenDialog({
          title,
          defaultUri: folder,
          canSelectMany: false,
          openLabel: 'Write the reader here',
          filters,
        });
        return files?.[0] ? { readerFile: files[0].toString() } : undefined;
      }
      const base = path.basename(writer.path, path.extname(writer.path));
      // A Python module is imported by its name: `feed_reader.py`, never `feed-reader.py`.
      const joiner = path.extname(writer.path) === '.py' ? '_' : '-';
      const file = await vscode.window.showSaveDialog({
        title,
        defaultUri: vscode.Uri.joinPath(folder, `${base}${joiner}reader${path.extname(writer.path)}`),
        saveLabel: 'Write the reader here',
        filters,
      });
      return file ? { readerFile: file.toString() } : undefined;
    }
  }
}

/** Asks every question in order; undefined when the user cancelled one. */
export async function askAnswers(args: AskFixArgs): Promise<FixAnswers | undefined> {
  const answers: FixAnswers = {};
  const writer = vscode.Uri.parse(args.uri);
  for (const q of args.questions) {
    const a = await askOne(q, args.title, writer);
    if (!a) return undefined;
    Object.assign(answers, a);
  }
  return answers;
}

/**
 * Runs the server's applyFix with the answers and shows where the change landed.
 * Returns the server's result (undefined when cancelled), for tests and callers.
 */
export async function askAndApplyFix(client: LanguageClient, raw: unknown): Promise<ApplyFixResult | undefined> {
  if (!isAskFixArgs(raw)) throw new Error('This fix was called without its target; ask for the quick fixes again.');
  const answers = await askAnswers(raw);
  if (!answers) return undefined;
  const { uri, range, rule, fixId } = raw;
  const args: ApplyFixArgs = { uri, range, rule, fixId, answers };
  // Straight to workspace/executeCommand: the server applies the edit with workspace/applyEdit
  // while this request is open, so the file has changed when the answer arrives.
  const result = (await client.sendRequest(ExecuteCommandRequest.type, {
    command: Commands.applyFix,
    arguments: [args],
  })) as ApplyFixResult | null;
  if (!result?.applied) {
    void vscode.window.showWarningMessage(`ShardLens: the fix was not applied: ${result?.reason ?? 'no answer'}`);
    return result ?? { applied: false, reason: 'no answer from the language server' };
  }
  if (result.reveal) await reveal(result.reveal);
  return result;
}

async function reveal(at: NonNullable<ApplyFixResult['reveal']>): Promise<void> {
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.parse(at.uri));
  const r = at.range;
  const range = new vscode.Range(r.start.line, r.start.character, r.end.line, r.end.character);
  await vscode.window.showTextDocument(doc, { selection: new vscode.Range(range.start, range.start), preview: false });
  const editor = vscode.window.visibleTextEditors.find((e) => e.document === doc);
  editor?.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
}
