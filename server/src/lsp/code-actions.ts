import {
  CodeActionKind,
  type CodeAction,
  type CodeActionParams,
  type Diagnostic,
  type TextEdit,
} from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { Commands } from '../../../protocol/src/commands';
import { docsUrl } from '../engine/rules';

export const FIX_ALL_KIND = `${CodeActionKind.SourceFixAll}.shardlens`;

function ruleOf(d: Diagnostic): string | null {
  return d.source === 'shardlens' && typeof d.code === 'string' ? d.code : null;
}

/** `// shardlens-ignore SL001` (or `#` in Python) on its own line above, indented like it. */
function ignoreEdit(doc: TextDocument, line: number, rule: string): TextEdit {
  const text = doc.getText({ start: { line, character: 0 }, end: { line: line + 1, character: 0 } });
  const indent = /^[ \t]*/.exec(text)![0];
  const comment = doc.languageId === 'python' ? '#' : '//';
  return {
    range: { start: { line, character: 0 }, end: { line, character: 0 } },
    newText: `${indent}${comment} shardlens-ignore ${rule}\n`,
  };
}

/**
 * One QuickFix pair per ShardLens diagnostic (ignore the line, open the rule's docs),
 * and `source.fixAll.shardlens`, which applies only fixes marked safe. Ignoring a
 * finding hides a problem rather than fixing it, so it is never part of fix-all.
 */
export function codeActions(doc: TextDocument, params: CodeActionParams): CodeAction[] {
  const only = params.context.only;
  const wants = (kind: string) => !only || only.some((k) => kind === k || kind.startsWith(`${k}.`));
  const actions: CodeAction[] = [];
  if (wants(CodeActionKind.QuickFix)) {
    for (const d of params.context.diagnostics) {
      const rule = ruleOf(d);
      if (!rule) continue;
      actions.push({
        title: `Ignore ${rule} on this line`,
        kind: CodeActionKind.QuickFix,
        diagnostics: [d],
        edit: { changes: { [doc.uri]: [ignoreEdit(doc, d.range.start.line, rule)] } },
      });
      actions.push({
        title: `Open documentation for ${rule}`,
        kind: CodeActionKind.QuickFix,
        diagnostics: [d],
        command: {
          title: `Open documentation for ${rule}`,
          command: Commands.openRuleDocs,
          arguments: [docsUrl(rule)],
        },
      });
    }
  }
  if (only && wants(FIX_ALL_KIND)) {
    // No rule has a fix safe enough to apply unasked yet; the kind is offered so
    // `editor.codeActionsOnSave` can name it, and it edits nothing.
    actions.push({ title: 'Fix all safe ShardLens problems', kind: FIX_ALL_KIND, edit: { changes: {} } });
  }
  return actions;
}
