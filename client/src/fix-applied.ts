import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type { Middleware } from 'vscode-languageclient/node';
import { Commands } from '../../protocol/src/commands';

/**
 * A fix applied from the light bulb is a plain workspace edit: VS Code runs no command for
 * it, so nothing could tell the walkthrough's "Apply a fix" step that it happened. This
 * middleware gives each ShardLens fix that is an edit (not an ignore comment, not a link to
 * the docs) the no-op command `shardlens.fix.applied`, which VS Code runs right after the
 * edit; the step completes on `onCommand:shardlens.fix.applied`. A fix that writes a new
 * file (a backfill script, a reader in a file of its own) passes that file, which the command
 * opens: VS Code creates it but would leave it unseen.
 */
export function fixAppliedMiddleware(): Pick<Middleware, 'provideCodeActions'> {
  return {
    async provideCodeActions(document, range, context, token, next) {
      const actions = await next(document, range, context, token);
      for (const a of actions ?? []) {
        if (a instanceof vscode.CodeAction && isFixEdit(a)) {
          const created = a.edit ? createdFile(a.edit) : null;
          a.command = { title: a.title, command: Commands.fixApplied, arguments: created ? [created] : [] };
        }
      }
      return actions;
    },
  };
}

/** A fix that changes the code: an edit with no command of its own, other than an ignore comment. */
export function isFixEdit(a: { title: string; edit?: unknown; command?: unknown }): boolean {
  return a.edit !== undefined && a.command === undefined && !/^Ignore SL\d{3}\b/.test(a.title);
}

/** The first file the edit writes that does not exist yet, as a URI string. */
function createdFile(edit: vscode.WorkspaceEdit): string | null {
  const uri = edit.entries().find(([u]) => u.scheme === 'file' && !fs.existsSync(u.fsPath))?.[0];
  return uri ? uri.toString() : null;
}

export function registerFixApplied(): vscode.Disposable {
  return vscode.commands.registerCommand(Commands.fixApplied, async (created?: unknown) => {
    if (typeof created === 'string')
      await vscode.window.showTextDocument(vscode.Uri.parse(created), { preview: false });
  });
}
