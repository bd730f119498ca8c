/**
 * What every part of the language server shares: the connection, the open documents,
 * what the client said it supports, and the stores `initialize` builds (settings, the
 * workspace index, fixes, live heat). Handlers read these when they run, never when
 * they are registered, since the stores exist only after `initialize`.
 */
import type { Connection } from 'vscode-languageserver/node';
import { initParsers } from '../engine';
import { AnalysisQueue } from './analysis-queue';
import type { ClientEdits } from './fix-actions';
import type { FixState } from './fix-state';
import type { Handlers } from './handlers';
import type { LiveHeat } from './live-heat';
import { OpenDocuments } from './open-documents';
import type { ConfigDiagnostics } from './project-config';
import type { SettingsStore } from './settings';
import type { Workspace } from './workspace';

export class ServerState {
  readonly parsersReady: Promise<void>;
  readonly docs: OpenDocuments;
  /** Each open document's analyses, debounced and in the order the client's messages came. */
  readonly queue: AnalysisQueue;
  /** What the client said it supports, from `initialize`. */
  readonly capabilities = { configuration: false, workspaceFolders: false, codeLensRefresh: false };
  readonly clientEdits: ClientEdits = { createFiles: false, askFix: false };
  folders: string[] = [];
  // Built by `initialize`.
  settings!: SettingsStore;
  configDiagnostics!: ConfigDiagnostics;
  workspace!: Workspace;
  fixState!: FixState;
  live!: LiveHeat;
  handlers!: Handlers;

  constructor(readonly connection: Connection) {
    this.parsersReady = initParsers();
    this.docs = new OpenDocuments(this.parsersReady);
    this.queue = new AnalysisQueue(this);
  }
}
