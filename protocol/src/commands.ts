/** Command ids contributed by the extension. */
export const Commands = {
  checkWorkspace: 'shardlens.checkWorkspace',
  restartServer: 'shardlens.restartServer',
  showOutput: 'shardlens.showOutput',
  openPanel: 'shardlens.openPanel',
  openRuleDocs: 'shardlens.openRuleDocs',
} as const;
