import { initParsers } from '../../syntax/parser';
import type { WorkspaceIndex } from '../index';
import type { AnalysisCache } from './index';

/**
 * Indexes files one at a time in this thread, restoring what the cache holds: the
 * grammars load only at the first file that must be analysed.
 */
export async function indexOneByOne(
  index: WorkspaceIndex,
  files: readonly string[],
  cache: AnalysisCache | null,
  maxBytes: number,
): Promise<void> {
  for (const f of files) {
    if (cache?.restoreFile(f, index, maxBytes)) continue;
    await initParsers();
    index.analyzeFile(f, false);
  }
}

/**
 * What needs every file in (`analyzeAll`'s passes: wrapper callers, writers of tables
 * defined later), then with a cache what a change of the workspace's facts reaches, and
 * the cache written back. The grammars load only when one of them has a file to read.
 */
export async function completeIndex(
  index: WorkspaceIndex,
  files: readonly string[],
  cache: AnalysisCache | null,
): Promise<void> {
  if (index.passesMayAnalyse(files, cache?.settled)) {
    await initParsers();
    index.completePasses(files, cache?.settled);
  }
  if (!cache) return;
  if (cache.mayReanalyse(index)) {
    await initParsers();
    cache.reconcile(index, files);
  }
  cache.save(index, files);
}
