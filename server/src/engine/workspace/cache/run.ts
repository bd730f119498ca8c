import { initParsers } from '../../syntax/parser';
import { infrastructureNeedsParsers } from '../../frontends/infra';
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
    const restored = cache?.restoreOrRead(f, index, maxBytes);
    if (restored === true) continue;
    await initParsers();
    // Only modules it read changed: asked again, its reads may keep the stored analysis.
    if (restored && 'reads' in restored && cache!.verifyNow(f, index)) continue;
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
  passed: ReadonlySet<string> = new Set(),
  onPhase: PhaseDone = () => {},
): Promise<void> {
  const settled = passed.size ? new Set([...(cache?.settled ?? []), ...passed]) : cache?.settled;
  if (index.passesMayAnalyse(files, settled)) {
    await initParsers();
    index.completePasses(files, settled);
  }
  onPhase('passes over the workspace');
  if (!cache) return;
  if (cache.mayReanalyse(index)) {
    await initParsers();
    cache.reconcile(index, files);
    onPhase('cache: facts moved, files analysed again');
  }
  cache.save(index, files);
  onPhase('cache written');
}

/** Told as each phase of indexing ends, by its name (the CLI's `SHARDLENS_TIMING`). */
export type PhaseDone = (phase: string) => void;

/** What `indexWorkspace` indexes: the source files and the infrastructure files (`collectFiles` lists both). */
export interface WorkspaceFiles {
  files: readonly string[];
  infrastructure: readonly string[];
}

/**
 * Indexes a workspace as `shardlens check` does, in its order: the infrastructure files
 * first (the functions they declare name the tables of environment variables and the
 * entry points), then each source file, then what needs every file in. `analyse` indexes
 * the source files in place of `indexOneByOne` (the CLI's analysis threads). Tests index
 * through this too, so what a test sees is what a user sees.
 */
export async function indexWorkspace(
  index: WorkspaceIndex,
  list: WorkspaceFiles,
  options: {
    maxBytes: number;
    cache?: AnalysisCache | null;
    /** Returns the files the passes need not read again (writers it already analysed with every definition). */
    analyse?: (files: readonly string[]) => Promise<ReadonlySet<string>>;
    onPhase?: PhaseDone;
  },
): Promise<void> {
  const cache = options.cache ?? null;
  const onPhase = options.onPhase ?? (() => {});
  // Terraform is read with a tree-sitter grammar: loaded here only when there is some.
  if (list.infrastructure.some(infrastructureNeedsParsers) || cache?.asksByName) await initParsers();
  index.readInfrastructure(list.infrastructure, cache?.infraReads());
  onPhase('infrastructure read');
  const passed = options.analyse
    ? await options.analyse(list.files)
    : await indexOneByOne(index, list.files, cache, options.maxBytes).then(() => new Set<string>());
  onPhase(cache ? 'files restored, read or analysed' : 'files read and analysed');
  await completeIndex(index, list.files, cache, passed, onPhase);
}
