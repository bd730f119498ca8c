import * as vscode from 'vscode';
import type { Middleware } from 'vscode-languageclient/node';
import { Commands } from '../../protocol/src/commands';

/**
 * A fix applied from the light bulb is a plain workspace edit: VS Code runs no command for
 * it, so nothing could tell the walkthrough's "Apply a fix" step that it happened. This
 * middleware gives each ShardLens fix that is an edit (not an ignore comment, not a link to
 * the docs) the no-op command `shardlens.fix.applied`, which VS Code runs right after the
 * edit; the step completes on `onCommand:shardlens.fix.applied`.
 */
export function fixAppliedMiddleware(): Pick<Middleware, 'provideCodeActions'> {
  return {
    async provideCodeActions(document, range, context, token, next) {
      const actions = await next(document, range, context, token);
      for (const a of actions ?? []) {
        if (a instanceof vscode.CodeAction && isFixEdit(a))
          a.command = { title: a.title, command: Commands.fixApplied };
      }
      return actions;
    },
  };
}

/** A fix that changes the code: an edit with no command of its own, other than an ignore comment. */
export function isFixEdit(a: { title: string; edit?: unknown; command?: unknown }): boolean {
  return a.edit !== undefined && a.command === undefined && !/^Ignore SL\d{3}\b/.test(a.title);
}

export function registerFixApplied(): vscode.Disposable {
  return vscode.commands.registerCommand(Commands.fixApplied, () => undefined);
}
