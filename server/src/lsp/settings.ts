import type { Connection } from 'vscode-languageserver';
import { normalizeSettings, type ShardLensSettings } from '../../../protocol/src/settings';
import { withProjectConfig } from '../config/merge';
import { configFor, type LoadedConfig } from '../config/project-config';
import { uriToPath } from './convert';

/**
 * Settings pulled from the client per resource (a folder can override the user's
 * settings) over the project config nearest the resource, cached until the client
 * says they changed or a config file changes. Never kept in globals beyond this cache.
 */
export class SettingsStore {
  private readonly cache = new Map<string, Promise<ShardLensSettings>>();

  constructor(
    private readonly connection: Connection,
    private readonly pull: boolean,
    /** Told of each project config read, so its problems can be shown on the file. */
    private readonly onConfig: (loaded: LoadedConfig) => void = () => {},
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
      const file = uri ? uriToPath(uri) : null;
      if (file)
        s = s.then((user) => {
          const loaded = configFor(file);
          this.onConfig(loaded);
          return withProjectConfig(user, loaded);
        });
      this.cache.set(uri, s);
    }
    return s;
  }

  clear(): void {
    this.cache.clear();
  }
}
