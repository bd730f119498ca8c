/**
 * Environment-named tables (`$SCORES_TABLE_NAME`): the code's name is never sent to AWS,
 * so live heat needs the account's table for it. The user picks it once from the
 * account's tables (`ListTables`, through the server) and the choice is saved in the
 * workspace's `shardlens.tables`; the server re-reads its settings and refreshes. Asked
 * once per name per workspace; the command asks again.
 */
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { ListTablesRequest } from '../../protocol/src/heat';
import type { HeatStatus } from '../../protocol/src/lsp';

export const MAP_TABLES = 'shardlens.mapTables';
const ASKED = 'shardlens.tables.asked';

/** `shardlens.tables` with one more entry, as the workspace keeps it. */
export function withMapping(current: Record<string, string>, name: string, table: string): Record<string, string> {
  return { ...current, [name]: table };
}

/** Picks the table for each name from the account's tables and saves the choices. */
export async function mapTables(client: LanguageClient | null, names: string[]): Promise<void> {
  if (names.length === 0) {
    void vscode.window.showInformationMessage('ShardLens: every table the code names is mapped (shardlens.tables).');
    return;
  }
  if (!client?.isRunning()) {
    void vscode.window.showErrorMessage('ShardLens: the language server is not running.');
    return;
  }
  const listed = await client.sendRequest(ListTablesRequest, {});
  if (!listed.ok) {
    void vscode.window.showErrorMessage(`ShardLens: the tables could not be listed: ${listed.problem.message}`);
    return;
  }
  const config = () => vscode.workspace.getConfiguration('shardlens');
  for (const name of names) {
    const pick = await vscode.window.showQuickPick(
      listed.tables.map((t) => ({ label: t })),
      {
        title: `ShardLens: which table is ${name}?`,
        placeHolder: listed.tables.length
          ? `The code names this table by an environment variable: pick it among the account's ${listed.tables.length} tables`
          : 'The account has no table in this region',
      },
    );
    if (!pick) continue;
    const current = config().get<Record<string, string>>('tables') ?? {};
    await config().update('tables', withMapping(current, name, pick.label), vscode.ConfigurationTarget.Workspace);
  }
}

/**
 * Asks once (per name, per workspace) when a status lists unmapped tables: a
 * notification whose button opens the pick. The status bar keeps warning meanwhile.
 */
export function askOnce(context: vscode.ExtensionContext, client: () => LanguageClient | null) {
  let open = false;
  return (s: HeatStatus): void => {
    const asked = new Set(context.workspaceState.get<string[]>(ASKED, []));
    const fresh = (s.unmapped ?? []).filter((n) => !asked.has(n));
    if (open || fresh.length === 0 || s.state === 'refreshing') return;
    open = true;
    void context.workspaceState.update(ASKED, [...asked, ...fresh]);
    const what = fresh.length === 1 ? `table ${fresh[0]}` : `tables ${fresh.join(', ')}`;
    void vscode.window
      .showInformationMessage(
        `ShardLens: the code names ${what} by an environment variable, which is never sent to AWS. Which table of this account is it?`,
        'Choose table…',
        'Not now',
      )
      .then(async (answer) => {
        if (answer === 'Choose table…') await mapTables(client(), fresh);
      })
      .then(
        () => (open = false),
        () => (open = false),
      );
  };
}
