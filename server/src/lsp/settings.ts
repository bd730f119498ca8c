import type { Connection } from 'vscode-languageserver';
import { normalizeSettings, type ShardLensSettings } from '../../../protocol/src/settings';

/**
 * Settings pulled from the client per resource (a folder can override the user's
 * settings), cached until the client says they changed. Never kept in globals
 * beyond this cache.
 */
export class SettingsStore {
  private readonly cache = new Map<string, Promise<ShardLensSettings>>();

  constructor(
    private readonly connection: Connection,
    private readonly pull: boolean,
  ) {}

  /** The settings for a resource; without one, the workspace-wide settings (live heat reads those). */
  get(uri = ''): Promise<ShardLensSettings> {
    let s = this.cache.get(uri);
    if (!s) {
      s = this.pull
        ? this.connection.workspace
            .getConfiguration(uri ? { scopeUri: uri, section: 'shardlens' } : { section: 'shardlens' })
            .then(normalizeSettings, () => normalizeSettings({}))
        : Promise.resolve(normalizeSettings({}));
      this.cache.set(uri, s);
    }
    return s;
  }

  clear(): void {
    this.cache.clear();
  }
}
