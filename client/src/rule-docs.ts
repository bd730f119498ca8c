/**
 * The VS Code side of offline rule docs (rule-docs-links.ts): the middleware that points
 * diagnostics' code links and hover links at the `shardlens.openRuleDocs` command, and
 * that command, which opens the page bundled in the VSIX in the Markdown preview.
 */
import * as vscode from 'vscode';
import type { Middleware } from 'vscode-languageclient/node';
import { Commands } from '../../protocol/src/commands';
import { localizeDocsLinks, ruleDocsCommandUri, ruleDocsPath, ruleOfDocsTarget } from './rule-docs-links';

export function ruleDocsMiddleware(): Middleware {
  return {
    handleDiagnostics(uri, diagnostics, next) {
      for (const d of diagnostics) {
        if (typeof d.code !== 'object' || d.code === null) continue;
        const rule = ruleOfDocsTarget(d.code.target.toString(true));
        if (rule)
          d.code = { value: d.code.value, target: vscode.Uri.parse(ruleDocsCommandUri(Commands.openRuleDocs, rule)) };
      }
      next(uri, diagnostics);
    },
    async provideHover(document, position, token, next) {
      const hover = await next(document, position, token);
      if (!hover) return hover;
      const contents = hover.contents.map((c) => {
        if (!(c instanceof vscode.MarkdownString)) return c;
        const md = new vscode.MarkdownString(localizeDocsLinks(c.value, Commands.openRuleDocs));
        // Only this one command may run from the hover's links.
        md.isTrusted = { enabledCommands: [Commands.openRuleDocs] };
        md.supportThemeIcons = c.supportThemeIcons;
        return md;
      });
      return new vscode.Hover(contents, hover.range);
    },
  };
}

/** Opens a rule's bundled page (a rule id or its web link) in the Markdown preview, else as text. */
export async function openRuleDocs(extensionUri: vscode.Uri, target: unknown): Promise<void> {
  const rule = ruleOfDocsTarget(target);
  if (!rule) throw new Error('No rule documentation link given.');
  const page = vscode.Uri.joinPath(extensionUri, ...ruleDocsPath(rule));
  try {
    await vscode.workspace.fs.stat(page);
  } catch {
    throw new Error(`The documentation of ${rule} is not in this installation (${page.fsPath}).`);
  }
  try {
    await vscode.commands.executeCommand('markdown.showPreview', page);
  } catch {
    // The built-in Markdown extension may be disabled: the page as text still reads.
    await vscode.window.showTextDocument(page, { preview: true });
  }
}
