import * as vscode from 'vscode';
import { coverageSummary, type WorkspaceStatus } from '../../protocol/src/lsp';
import { plural, severityCounts } from '../../protocol/src/plural';

/** The workspace's finding count in the status bar; a click opens the Problems view. */
export function createStatusItem(): { item: vscode.StatusBarItem; update(s: WorkspaceStatus | null): void } {
  const item = vscode.window.createStatusBarItem('shardlens.status', vscode.StatusBarAlignment.Left, 10);
  item.name = 'ShardLens';
  item.command = 'workbench.actions.view.problems';
  const update = (s: WorkspaceStatus | null) => {
    if (!s) {
      item.text = '$(circle-slash) ShardLens';
      item.tooltip = 'ShardLens: the language server is not running';
    } else if (s.indexing) {
      // Not a count: until the first index is complete, "0" would read as "no findings".
      item.text = '$(sync~spin) ShardLens: indexing…';
      item.tooltip = 'ShardLens: indexing the workspace; the findings are counted when it is done';
    } else {
      const total = s.errors + s.warnings + s.infos;
      item.text = `${total > 0 ? '$(warning)' : '$(check)'} ShardLens: ${total}`;
      item.tooltip = new vscode.MarkdownString(
        `**ShardLens** — hot-partition findings in ${plural(s.files, 'file')}\n\n` +
          `${severityCounts(s, ' · ')}\n\n${coverageSummary(s)}\n\n` +
          'Click to open the Problems view.',
      );
    }
    item.show();
  };
  update({ indexing: true, files: 0, errors: 0, warnings: 0, infos: 0, calls: 0, resolved: 0 });
  return { item, update };
}
