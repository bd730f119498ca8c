import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';

export const EXTENSION_ID = 'shardlens.shardlens';

/** Polls `check` until it returns a truthy value (never a fixed sleep); fails with what was last seen. */
export async function until<T>(
  what: string,
  check: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  ms = 30_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  let last: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v) return v;
      last = v;
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `timed out after ${ms} ms waiting for ${what}; last: ${last instanceof Error ? last.message : JSON.stringify(last)}`,
      );
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The workspace folder the tests run in (a temp copy of examples/). */
export function workspaceRoot(): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the tests need a workspace folder (a copy of examples/)');
  return folder.uri;
}

export function fileUri(rel: string): vscode.Uri {
  return vscode.Uri.joinPath(workspaceRoot(), ...rel.split('/'));
}

/** ShardLens diagnostics of one file, or of the whole workspace. */
export function shardlens(uri?: vscode.Uri): vscode.Diagnostic[] {
  const all = uri ? vscode.languages.getDiagnostics(uri) : vscode.languages.getDiagnostics().flatMap(([, ds]) => ds);
  return all.filter((d) => d.source === 'shardlens');
}

export function codeOf(d: vscode.Diagnostic): string | undefined {
  const c = d.code;
  return typeof c === 'object' && c !== null ? String(c.value) : c === undefined ? undefined : String(c);
}

export function counts(ds: vscode.Diagnostic[]): { errors: number; warnings: number; infos: number; total: number } {
  const S = vscode.DiagnosticSeverity;
  return {
    errors: ds.filter((d) => d.severity === S.Error).length,
    warnings: ds.filter((d) => d.severity === S.Warning).length,
    infos: ds.filter((d) => d.severity === S.Information || d.severity === S.Hint).length,
    total: ds.length,
  };
}

/** Plain text of the hovers VS Code would show at `pos` (all providers). */
export async function hoverTexts(uri: vscode.Uri, pos: vscode.Position): Promise<string[]> {
  const hovers = (await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, pos)) ?? [];
  return hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value)));
}

/** The ShardLens hover at `pos`: the markdown that starts with `**ShardLens**`. */
export async function shardlensHover(uri: vscode.Uri, pos: vscode.Position): Promise<string | undefined> {
  return (await hoverTexts(uri, pos)).find((t) => t.startsWith('**ShardLens**'));
}

/** Sets a `shardlens.*` setting in the workspace (what a user does in settings.json); `undefined` removes it. */
export async function setSetting(key: string, value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration('shardlens').update(key, value, vscode.ConfigurationTarget.Workspace);
}
