/**
 * Settings and project configuration: a change to either is applied live, and a change
 * of `shardlens.contexts` (or of a project config's contexts and entry points) rebuilds
 * the index.
 */
import * as path from 'node:path';
import { forgetConfigs } from '../config/project-config';
import { documentUri } from './params';
import { uriToPath } from './convert';
import { isConfigFile } from './project-config';
import type { ServerState } from './server-state';

export function registerConfiguration(state: ServerState): void {
  state.connection.onDidChangeConfiguration(async () => {
    const { settings, workspace, live } = state;
    // Settings apply live: severities and exclusions change what is published, contexts
    // what is analysed, the AWS settings where live heat comes from.
    settings.clear();
    if (await applyContexts(state)) await workspace.indexAll();
    else await workspace.publishAll();
    await live.configure();
  });
}

/**
 * Reads each folder's `shardlens.contexts`; when one changed, its index is rebuilt
 * (by the caller's `indexAll`) and the open documents are analysed afresh with it.
 */
export async function applyContexts(state: ServerState): Promise<boolean> {
  const { workspace, docs } = state;
  if (!(await workspace.applyContexts())) return false;
  docs.setOptions((key) => workspace.indexFor(key).fileOptions);
  return true;
}

/**
 * A project config (shardlens.config.json, package.json, pyproject.toml) changed on disk:
 * everything is judged again with it, as after a settings change (its contexts and entry
 * points change what is analysed, so the index is rebuilt), and its problems are shown.
 */
export async function configChanged(state: ServerState, changes: unknown[]): Promise<void> {
  const { settings, configDiagnostics, docs, workspace } = state;
  const files = changes
    .map((c) => documentUri({ textDocument: c }))
    .map((u) => (u ? uriToPath(u) : null))
    .filter((f): f is string => !!f && isConfigFile(f));
  if (files.length === 0) return;
  forgetConfigs();
  // A package.json names the monorepo's packages that imports resolve to.
  if (files.some((f) => path.basename(f) === 'package.json')) workspace.manifestsChanged();
  settings.clear();
  for (const f of files) configDiagnostics.recheck(f);
  await applyContexts(state);
  docs.setOptions((key) => workspace.indexFor(key).fileOptions);
  await workspace.indexAll();
}
