import type { Connection } from 'vscode-languageserver';
import { normalizeSettings, type ShardLensSettings } from '../../../protocol/src/settings';
import { withProjectConfig } from '../config/merge';
import { configFor, type LoadedConfig } from '../config/project-config';
import * as path from 'node:path';
import { pathToUri, uriToPath } from './convert';

/**
 * Settings pulled from the client per workspace folder (a folder can override the user's
 * settings) over the project config nearest the resource, cached until the client
 * says they changed or a config file changes. Never kept in globals beyond this cache.
 */
export class SettingsStore {
  /** By URI, as asked (a file's is its `byFile` one; '' holds the workspace-wide settings). */
  private readonly cache = new Map<string, Promise<ShardLensSettings>>();
  /** By path, for a file. */
  private readonly byFile = new Map<string, Promise<ShardLensSettings>>();
  /**
   * The client's settings of a scope over one project config, shared by the files they
   * apply to: the files of a folder share their config, and a workspace's thousands of files
   * a few dozen of these (merging them per file was a twentieth of a warm start).
   */
  private readonly merged = new Map<string, Map<LoadedConfig, Promise<ShardLensSettings>>>();
  /** What the client said, per scope: a workspace folder, or a file outside every folder. */
  private readonly pulled = new Map<string, Promise<ShardLensSettings>>();

  constructor(
    private readonly connection: Connection,
    private readonly pull: boolean,
    /** Told of each project config read, so its problems can be shown on the file. */
    private readonly onConfig: (loaded: LoadedConfig) => void = () => {},
    /** The workspace folders: a file's settings are asked for once for the deepest folder holding it. */
    private readonly folders: () => readonly string[] = () => [],
  ) {}

  /** The settings for a resource; without one, the workspace-wide settings (live heat reads those). */
  get(uri = ''): Promise<ShardLensSettings> {
    let s = this.cache.get(uri);
    if (!s) {
      const file = uri ? uriToPath(uri) : null;
      s = file ? this.forFile(file, uri) : this.fromClient(uri);
      this.cache.set(uri, s);
    }
    return s;
  }

  /** A file's settings (by its path; `uri` when the caller has it): its folder's, over the project config nearest it. */
  forFile(file: string, uri?: string): Promise<ShardLensSettings> {
    let s = this.byFile.get(file);
    if (!s) {
      const loaded = configFor(file);
      const scope = this.scopeOf(file, uri);
      let byConfig = this.merged.get(scope);
      if (!byConfig) this.merged.set(scope, (byConfig = new Map()));
      s = byConfig.get(loaded);
      if (!s) {
        s = this.fromClient(scope).then((user) => {
          this.onConfig(loaded);
          return withProjectConfig(user, loaded);
        });
        byConfig.set(loaded, s);
      }
      this.byFile.set(file, s);
    }
    return s;
  }

  /**
   * The client's settings for a scope, asked for once. VS Code resolves a resource's
   * settings from the user's, the workspace's and its folder's (the file itself adds
   * nothing but language overrides, which these settings do not take), so one request
   * per folder answers for every file in it: on a workspace of 5,000 files, one
   * `workspace/configuration` request on start instead of 5,000.
   */
  private fromClient(scope: string): Promise<ShardLensSettings> {
    let s = this.pulled.get(scope);
    if (!s) {
      s = this.pull
        ? this.connection.workspace
            .getConfiguration(scope ? { scopeUri: scope, section: 'shardlens' } : { section: 'shardlens' })
            .then(normalizeSettings, () => normalizeSettings({}))
        : Promise.resolve(normalizeSettings({}));
      this.pulled.set(scope, s);
    }
    return s;
  }

  /** The deepest workspace folder holding `file` (as a URI), else the file's own URI. */
  private scopeOf(file: string, uri?: string): string {
    let best: string | null = null;
    for (const f of this.folders())
      if ((file === f || file.startsWith(f + path.sep)) && (!best || f.length > best.length)) best = f;
    return best === null ? (uri ?? pathToUri(file)) : pathToUri(best);
  }

  /** Forgets every setting read: the client said they changed, a config file changed, or the folders did. */
  clear(): void {
    this.cache.clear();
    this.byFile.clear();
    this.merged.clear();
    this.pulled.clear();
  }
}
