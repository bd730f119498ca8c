import { NotificationType, RequestType0 } from 'vscode-languageserver-protocol';

/**
 * The custom messages between the ShardLens client and language server: one
 * definition both sides import (method names `shardlens/...`).
 */
export interface WorkspaceStatus {
  /** True while the workspace is being indexed. */
  indexing: boolean;
  files: number;
  errors: number;
  warnings: number;
  infos: number;
}

export interface CheckWorkspaceResult extends WorkspaceStatus {
  /** Files skipped, with the reason (too large, binary, ...). */
  skipped: Array<{ file: string; reason: string }>;
  durationMs: number;
}

/** Server → client after each change of the workspace's findings. */
export const StatusNotification = new NotificationType<WorkspaceStatus>('shardlens/status');
/** Client → server: index the workspace again now. */
export const CheckWorkspaceRequest = new RequestType0<CheckWorkspaceResult, void>('shardlens/checkWorkspace');
