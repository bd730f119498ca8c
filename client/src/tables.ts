/**
 * Environment-named tables (`$SCORES_TABLE_NAME`): the code's name is never sent to AWS,
 * so live heat needs the account's table for it. The user picks it once from the
 * account's tables (`ListTables`, through the server) and the choice is saved in the
 * workspace's `shardlens.tables`; the server re-reads its settings and refreshes. Asked
 * once per name per workspace; the command asks again.
 */
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { KeysRequest, ListTablesRequest } from '../../protocol/src/heat';
import type { HeatStatus } from '../../protocol/src/lsp';
import { deployedTableCandidates, sstTableCandidates } from '../../protocol/src/settings';
import type { JsonKeysReport } from '../../protocol/src/report';
import { tableUses, usesLine } from './table-uses';

export const MAP_TABLES = 'shardlens.mapTables';
const ASKED = 'shardlens.tables.asked';

/** `shardlens.tables` with one more entry, as the workspace keeps it. */
export function withMapping(current: Record<string, string>, name: string, table: string): Record<string, string> {
  return { ...current, [name]: table };
}

/**
 * Maps environment tables in two steps of one quick input: the unmapped names, each with
 * where the code uses it, then the account's table for the one chosen (Back returns to the
 * names). Each choice is saved in the workspace's settings at once; the names left are
 * offered again, and Escape at any step ends with what was chosen so far saved. A single
 * name goes straight to its table.
 */
export async function mapTables(client: LanguageClient | null, names: string[]): Promise<void> {
  if (names.length === 0) {
    void vscode.window.showInformationMessage('ShardLens: every table the code names is mapped (shardlens.tables).');
    return;
  }
  if (!client?.isRunning()) {
    void vscode.window.showErrorMessage('ShardLens: the language server is not running.');
    return;
  }
  const [listed, keys] = await Promise.all([
    client.sendRequest(ListTablesRequest, {}),
    client.sendRequest(KeysRequest, {}).catch(() => null),
  ]);
  if (!listed.ok) {
    void vscode.window.showErrorMessage(`ShardLens: the tables could not be listed: ${listed.problem.message}`);
    return;
  }
  const config = () => vscode.workspace.getConfiguration('shardlens');
  let left = [...names];
  let saved: string | null = null;
  while (left.length) {
    const name: string | undefined = left.length === 1 && !saved ? left[0] : await pickName(left, keys, saved);
    if (!name) return;
    const table = await pickTable(name, listed.tables, left.length > 1 || saved !== null, logicalIdsOf(keys, name));
    if (table === BACK) continue;
    if (!table) return;
    const current = config().get<Record<string, string>>('tables') ?? {};
    await config().update('tables', withMapping(current, name, table), vscode.ConfigurationTarget.Workspace);
    saved = `${name} → ${table}`;
    left = left.filter((n) => n !== name);
  }
}

const BACK = Symbol('back');
const TITLE = 'ShardLens: Map Environment Tables';

/** Step 1: which unmapped name; undefined on Escape. */
function pickName(left: string[], keys: JsonKeysReport | null, saved: string | null): Promise<string | undefined> {
  const q = vscode.window.createQuickPick<vscode.QuickPickItem>();
  q.title = TITLE;
  q.step = 1;
  q.totalSteps = 2;
  q.matchOnDescription = true;
  q.matchOnDetail = true;
  q.placeholder =
    (saved ? `Saved ${saved}. ` : '') +
    `${left.length === 1 ? 'This name' : `These ${left.length} names`} of the code come from the environment: ` +
    'pick one to choose its table (Escape keeps what is saved)';
  q.items = left.map((name) => {
    const { count, where } = usesLine(tableUses(keys, name));
    return { label: name, description: count, detail: where || undefined };
  });
  return once(q, (done) => [q.onDidAccept(() => done(q.selectedItems[0]?.label))]);
}

/** The template's logical ids for an env-named table (`DynamoDBTable`), from the keys report. */
function logicalIdsOf(keys: JsonKeysReport | null, name: string): string[] {
  return (keys?.tables ?? []).filter((t) => t.table === name).flatMap((t) => t.logicalIds ?? []);
}

/** Step 2: the account's table for `name`; BACK for the Back button, undefined on Escape. */
function pickTable(
  name: string,
  tables: string[],
  back: boolean,
  logicalIds: string[],
): Promise<string | typeof BACK | undefined> {
  const q = vscode.window.createQuickPick<vscode.QuickPickItem>();
  q.title = `ShardLens: which table is ${name}?`;
  if (back) {
    q.step = 2;
    q.totalSteps = 2;
    q.buttons = [vscode.QuickInputButtons.Back];
  }
  q.placeholder = tables.length
    ? `The code names this table by an environment variable: pick it among the account's ${tables.length} tables`
    : 'The account has no table in this region';
  // An SST table's id is a word of its physical name, a template's table without a TableName is
  // named after its logical id: those tables first, marked.
  const sst = sstTableCandidates(name, tables);
  const deployed = deployedTableCandidates(logicalIds, tables).filter((t) => !sst.includes(t));
  const likely = [...sst, ...deployed];
  q.items = [
    ...sst.map((t) => ({ label: t, description: 'named after the SST id' })),
    ...deployed.map((t) => ({ label: t, description: `named after the template's ${logicalIds.join(' / ')}` })),
    ...(likely.length ? [{ label: 'all tables', kind: vscode.QuickPickItemKind.Separator }] : []),
    ...tables.filter((t) => !likely.includes(t)).map((t) => ({ label: t })),
  ];
  return once(q, (done) => [
    q.onDidAccept(() => done(q.selectedItems[0]?.label)),
    q.onDidTriggerButton((b) => b === vscode.QuickInputButtons.Back && done(BACK)),
  ]);
}

/** Shows a quick pick and resolves with the first answer its handlers give, or undefined when hidden. */
function once<T>(
  q: vscode.QuickPick<vscode.QuickPickItem>,
  handlers: (done: (v: T | undefined) => void) => vscode.Disposable[],
): Promise<T | undefined> {
  return new Promise((resolve) => {
    let settled = false;
    const done = (v: T | undefined) => {
      if (settled) return;
      settled = true;
      subs.forEach((d) => d.dispose());
      q.dispose();
      resolve(v);
    };
    const subs = [...handlers(done), q.onDidHide(() => done(undefined))];
    q.show();
  });
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
