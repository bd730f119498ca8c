import { createHash } from 'node:crypto';
import * as path from 'node:path';
import { AnalysisCache, cacheDir, DEFAULT_MAX_BYTES, ENGINE_VERSION, type ReadText } from '../engine';
import { configFor } from '../config/project-config';

/**
 * The analysis cache of one workspace folder. With the client's storage folder (VS Code
 * gives each workspace one), a subfolder per workspace folder: nothing is written into
 * the user's folders. Without it (another editor), where `check --cache` keeps its own,
 * under another name (the server's contexts make another key).
 */
export function serverCache(
  folder: string,
  contexts: readonly string[] | undefined,
  storage: string | undefined,
  /** An open document's text, null for a file not open. */
  open: ReadText,
  notice: (line: string) => void,
): AnalysisCache {
  const dir = storage
    ? path.join(storage, 'analysis-cache', createHash('sha1').update(folder).digest('hex').slice(0, 16))
    : cacheDir(folder);
  return new AnalysisCache({
    dir,
    name: 'server',
    key: {
      version: ENGINE_VERSION,
      root: folder,
      // The folder's project config: its entryPoints decide the roles stored findings were judged with.
      options: { maxBytes: DEFAULT_MAX_BYTES, contexts: contexts ?? null, ...projectConfigKey(folder) },
    },
    open,
    notice,
  });
}

/** The folder's own project config as part of the key; nothing when it has none (the key stays as before). */
function projectConfigKey(folder: string): { config?: unknown } {
  const loaded = configFor(folder);
  return loaded.file ? { config: [loaded.file, loaded.config] } : {};
}
