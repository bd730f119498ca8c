import { CODE_CONTEXTS, DEFAULT_SETTINGS, type ShardLensSettings } from '../../../protocol/src/settings';
import type { LoadedConfig } from './project-config';
import { coldEntriesOf } from './cold-entries';

/**
 * The settings a document is judged by: the project config, overridden per user by
 * VS Code settings as ESLint's are. A VS Code setting counts when it differs from its
 * default (the server sees values, not where they were set): a rule severity named
 * there, contexts other than all four, a shard count other than 10 or a peak rate.
 * Exclusions add up: the project's globs (relative to its config) and the user's.
 */
export function withProjectConfig(user: ShardLensSettings, loaded: LoadedConfig): ShardLensSettings {
  const c = loaded.config;
  const d = DEFAULT_SETTINGS.shards;
  return {
    ...user,
    rules: { ...c.rules, ...user.rules },
    contexts: user.contexts.length !== CODE_CONTEXTS.length ? user.contexts : (c.contexts ?? user.contexts),
    shards: {
      defaultCount:
        user.shards.defaultCount !== d.defaultCount
          ? user.shards.defaultCount
          : (c.shards.defaultCount ?? d.defaultCount),
      peakWriteUnits:
        user.shards.peakWriteUnits !== d.peakWriteUnits
          ? user.shards.peakWriteUnits
          : (c.shards.peakWriteUnits ?? d.peakWriteUnits),
    },
    keys: c.keys,
    coldEntries: coldEntriesOf(loaded),
  };
}
