/**
 * The documents the client opens, edits and closes, and the files that change on disk:
 * each is analysed again (an edit after a pause) and its findings published.
 */
import * as fs from 'node:fs';
import { FileChangeType } from 'vscode-languageserver/node';
import { configChanged } from './configuration';
import { uriToPath } from './convert';
import { OpenDocuments } from './open-documents';
import { didChangeParams, documentUri } from './params';
import { isConfigFile } from './project-config';
import type { ServerState } from './server-state';

export function registerDocumentSync(state: ServerState): void {
  const { connection, docs, queue } = state;

  connection.onDidOpenTextDocument(async (p) => {
    const uri = documentUri(p);
    if (!uri || typeof p.textDocument.text !== 'string') {
      return connection.console.error(
        'textDocument/didOpen needs { textDocument: { uri, languageId, version, text } }',
      );
    }
    const key = OpenDocuments.keyOf(uri);
    if (docs.open(p, state.workspace.indexFor(key).fileOptions) || docs.templates.open(p)) await queue.analyse(uri);
  });

  connection.onDidChangeTextDocument((raw) => {
    const p = didChangeParams(raw);
    // Refused whole: applying part of a malformed change would leave a text the client never had.
    if (typeof p === 'string') return connection.console.error(`${p}; the change is ignored`);
    if (!docs.change(p) && !docs.templates.change(p)) return;
    state.fixState.edited();
    queue.debounce(p.uri);
  });

  connection.onDidCloseTextDocument(async (p) => {
    const uri = documentUri(p);
    if (!uri) return connection.console.error('textDocument/didClose needs { textDocument: { uri } }');
    queue.cancel(uri);
    // A document never opened (or in a language ShardLens does not read) changes nothing:
    // reading it from disk would list a file that may not exist as unreadable.
    if (!docs.close(uri) && !docs.templates.close(uri)) return;
    const key = OpenDocuments.keyOf(uri);
    await queue.inTurn(uri, 'closing', async () => {
      const { workspace } = state;
      // Reopened meanwhile: the reopened document's analysis, queued next, stands for it.
      if (docs.get(uri) || docs.templates.has(uri)) return;
      // Back to what is on disk for a workspace file; an unsaved buffer, a file deleted
      // meanwhile or one outside the workspace takes its findings with it.
      if (uriToPath(uri) && workspace.inFolders(key) && isFile(key)) await workspace.refreshFile(key);
      else await workspace.forget(key);
    });
  });

  connection.onDidChangeWatchedFiles(async (p) => {
    const changes: unknown[] = Array.isArray(p?.changes) ? p.changes : [];
    await configChanged(state, changes);
    for (const change of changes) {
      const uri = documentUri({ textDocument: change });
      const key = uri && uriToPath(uri);
      if (!key || docs.get(uri) || docs.templates.has(uri) || isConfigFile(key)) continue;
      const type = (change as { type?: unknown }).type;
      if (type === FileChangeType.Deleted) await state.workspace.forget(key);
      else await state.workspace.refreshFile(key);
    }
  });
}

function isFile(file: string): boolean {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}
