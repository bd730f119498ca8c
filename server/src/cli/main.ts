import * as fs from 'node:fs';
import { loadHeat } from './load-heat';
import { PhaseTimes, phaseTimesFromEnv } from './timing';
import { routeSdkNodeWarning } from '../heat/sdk-warnings';
import {
  AnalysisCache,
  cacheDir,
  stampsBefore,
  collectFiles,
  ENGINE_VERSION,
  noteWalkedFolder,
  type FileAnalysis,
  indexWorkspace,
  MAX_DEPTH,
  type Severity,
  type CacheSetup,
  type FileList,
  installedNote,
  compiledNote,
  WorkspaceIndex,
} from '../engine';
import { toJunit } from './junit';
import { parseArgs, UsageError, USAGE, type CheckOptions, type FailOn, type KeysOptions } from './args';
import { isMainThread } from 'node:worker_threads';
import { formatKeysText, formatMatchText, subjectOfTable, toJsonKeys, toJsonMatches } from './keys';
import { labMain } from './lab';
import { exprMain } from './expr';
import { keysTooDeep, toJsonCoverage } from './coverage';
import { indexInParallel, prestartAnalysis } from './parallel';
import { workspaceRoot } from './root';
import { skippedOf, toJsonReport, type SkippedPath } from './report';
import { toSarif } from './sarif';
import { toGithubAnnotations, toGitlabCodeQuality } from './ci-formats';
import { callCounts, formatSkipped, formatStats, formatText } from './text';
import { printConfig, ProjectConfigs } from './project';
import { readBaseline, withoutBaseline, writeBaseline } from './baseline';
import { formatUnusedIgnores, unusedIgnoresOf } from './unused-ignores';
import { changedFiles, onlyReached } from './changed';
import { formatInfraStats, infraCoverage, toJsonFunctions, toJsonTables } from './infra-report';

const withInfra = (infrastructure: ReturnType<typeof infraCoverage>) => (infrastructure ? { infrastructure } : {});

declare const SHARDLENS_VERSION: string | undefined;
const VERSION = typeof SHARDLENS_VERSION === 'string' ? SHARDLENS_VERSION : '0.0.0-dev';

/** The check's cache file's name in the cache folder (the language server's is `server`). */
const CHECK_CACHE = 'check';

/** Below this many files, starting a second thread costs more than it saves. */
const PARALLEL_FROM = Number(process.env.SHARDLENS_PARALLEL_FROM ?? 400);

const RANK: Record<Severity, number> = { info: 1, warning: 2, error: 3 };

export function reachesFailOn(results: FileAnalysis[], failOn: FailOn): boolean {
  if (failOn === 'never') return false;
  return results.some((r) => r.findings.some((f) => RANK[f.severity] >= RANK[failOn]));
}

interface Indexed {
  index: WorkspaceIndex;
  gitignored: number;
  /** Folders of installed Python packages, left out (installed-packages.ts). */
  installed: FileList['installed'];
  /** JavaScript files left out as tsc's output beside their TypeScript (compiled-output.ts). */
  compiled: number;
  /** Folders that could not be listed: reported with the skipped files. */
  unreadable: SkippedPath[];
  /** Files a project config's `exclude` left out. */
  excluded: number;
}

/** Collects and indexes the files under `paths`; null when none of the paths exists. */
async function indexPaths(
  paths: string[],
  maxFileBytes: number,
  err: NodeJS.WritableStream,
  cacheOption?: CheckOptions['cache'],
  configs?: ProjectConfigs,
  times: PhaseTimes = new PhaseTimes(false),
): Promise<Indexed | null> {
  times.mark('start-up (Node, the bundle, the options)');
  // A folder may hold many files: the analysis thread loads its grammars while the walk runs
  // (with a cache, only when a file changed since it was written, or it cannot be used).
  const root = workspaceRoot(paths);
  if (!cacheOption && paths.some(isDirectory)) prestartAnalysis(root, maxFileBytes);
  // What the walk lists answers later questions about files present (project markers, configs, path-alias configs) too.
  const list = collectFiles(paths, { onFolder: noteWalkedFolder });
  times.mark('walk');
  for (const m of list.missing)
    err.write(`shardlens: ${m}: no such file, or not a TypeScript/JavaScript/Python file\n`);
  if (list.missing.length > 0 && list.files.length === 0 && list.infrastructure.length === 0) return null;
  const { files, excluded } = configs ? configs.included(list.files) : { files: list.files, excluded: 0 };
  const parallel = files.length >= PARALLEL_FROM;
  let cache: AnalysisCache | null = null;
  if (cacheOption) {
    // Kept where the check runs, whatever folder it reads.
    const dir = cacheDir(process.cwd(), cacheOption.location);
    // A file changed since the cache was written: its analysis thread loads while the cache is read.
    const before = parallel ? stampsBefore(dir, CHECK_CACHE, files) : null;
    if (before?.changed) prestartAnalysis(root, maxFileBytes);
    cache = openCache(dir, root, maxFileBytes, err, configs?.key() ?? [], before?.stamps);
    if (!cache.loaded && paths.some(isDirectory)) prestartAnalysis(root, maxFileBytes);
    times.mark('cache read (and files stat-ed)');
  }
  const index = new WorkspaceIndex({ root, maxBytes: maxFileBytes });
  const infrastructure = configs ? configs.included(list.infrastructure).files : list.infrastructure;
  const analyse = parallel
    ? (fs: readonly string[]) => indexInParallel(index, [...fs], root, maxFileBytes, cache)
    : undefined;
  const onPhase = (phase: string) => times.mark(phase);
  await indexWorkspace(index, { files, infrastructure }, { maxBytes: maxFileBytes, cache, analyse, onPhase });
  return {
    index,
    excluded,
    gitignored: list.gitignored,
    installed: list.installed,
    compiled: list.compiled,
    unreadable: list.unreadable.map((u) => ({ file: u.path, reason: u.reason })),
  };
}

/** The check's cache, keyed by the options that change a file's analysis (the contexts filter findings later). */
function openCache(
  dir: string,
  root: string,
  maxBytes: number,
  err: NodeJS.WritableStream,
  configs: unknown[],
  stamps: CacheSetup['stamps'],
): AnalysisCache {
  return new AnalysisCache({
    dir,
    name: CHECK_CACHE,
    stamps,
    // The project configs decide file roles (entryPoints) the stored findings were judged with.
    // (none read: the key is what it was before project configs existed).
    key: { version: ENGINE_VERSION, root, options: configs.length ? { maxBytes, configs } : { maxBytes } },
    notice: (line) => err.write(`shardlens: ${line}\n`),
  });
}

/** The coverage line for keys the evaluators could not follow, or null when there were none. */
function tooDeepNote(n: number): string | null {
  if (n === 0) return null;
  return `${n} key value${n === 1 ? '' : 's'} nest${n === 1 ? 's' : ''} deeper than ${MAX_DEPTH} levels: not followed, judged as {unknown}`;
}

export async function check(
  options: CheckOptions,
  out: NodeJS.WritableStream,
  err: NodeJS.WritableStream,
): Promise<number> {
  if (options.printConfig) return printConfig(options.printConfig, out, err, options.config);
  const configs = new ProjectConfigs(options.config);
  configs.install();
  try {
    return await checkWith(configs, options, out, err);
  } finally {
    configs.uninstall();
  }
}

async function checkWith(
  configs: ProjectConfigs,
  options: CheckOptions,
  out: NodeJS.WritableStream,
  err: NodeJS.WritableStream,
): Promise<number> {
  // Asked before the analysis: outside a git repository, or with an unknown REF, it is a usage error at once.
  const changed = options.changed ? changedFiles(options.changed, process.cwd()) : null;
  const times = phaseTimesFromEnv();
  const indexed = await indexPaths(options.paths, options.maxFileBytes, err, options.cache, configs, times);
  configs.report(err);
  if (!indexed) return 2;
  let results = indexed.index.results();
  times.mark('findings (rules, keys across files)');
  if (changed) {
    results = onlyReached(results, indexed.index, changed.files);
    const all = [...indexed.index.analyses()].length;
    if (!options.quiet)
      err.write(`shardlens: reporting on ${results.length} of ${all} files (changes since ${changed.base})\n`);
  }
  // The AWS SDK loads only when live data is asked for: plain checks start as fast as before.
  if (options.heat) {
    const { withLiveEvidence } = loadHeat();
    results = await withLiveEvidence(results, indexed.index, options.heat, err);
  }
  // Each file's project config (and --contexts) decides what is reported and how severe.
  results = configs.judge(results, options.contexts);
  // Read before anything is written: a bad baseline is a usage error, with no output.
  const baseline = options.baseline ? readBaseline(options.baseline) : null;
  if (options.writeBaseline) {
    const n = writeBaseline(options.writeBaseline, results);
    err.write(`shardlens: wrote ${n} finding${n === 1 ? '' : 's'} to ${options.writeBaseline}\n`);
  }
  if (baseline) {
    const kept = withoutBaseline(results, baseline);
    results = kept.results;
    if (!options.quiet && kept.known > 0)
      err.write(
        `shardlens: ${kept.known} finding${kept.known === 1 ? '' : 's'} already in ${options.baseline} not shown\n`,
      );
  }
  const unused = options.reportUnusedIgnores ? unusedIgnoresOf(indexed.index, results) : [];
  const skipped = skippedOf(results, indexed.unreadable);
  const tooDeep = await keysTooDeep(results);
  const infraReads = indexed.index.infrastructureReads();
  const coverage = { ...toJsonCoverage(results, tooDeep), ...withInfra(infraCoverage(infraReads)) };
  const declared = indexed.index.infrastructure();
  const infrastructure = infraReads.length
    ? { functions: toJsonFunctions(declared), tables: toJsonTables(declared) }
    : null;
  if (options.format === 'json')
    out.write(JSON.stringify(toJsonReport(results, skipped, coverage, infrastructure), null, 2) + '\n');
  else if (options.format === 'github') out.write(toGithubAnnotations(results));
  else if (options.format === 'gitlab') out.write(JSON.stringify(toGitlabCodeQuality(results), null, 2) + '\n');
  else if (options.format === 'junit') out.write(toJunit(results, options.failOn));
  else if (options.format === 'sarif')
    out.write(JSON.stringify(toSarif(results, VERSION, skipped, tooDeepNote(tooDeep), coverage), null, 2) + '\n');
  else {
    const color = options.color ?? ((out as NodeJS.WriteStream).isTTY === true && !process.env.NO_COLOR);
    out.write(formatText(results, color, options.quiet));
    // Asked for by name, the block shows even with --quiet.
    if (options.stats)
      out.write(
        '\n' + formatStats(coverage, color, callCounts(results).kafka) + formatInfraStats(coverage.infrastructure),
      );
  }
  if (!options.quiet) {
    err.write(formatSkipped(skipped));
    const note = tooDeepNote(tooDeep);
    if (note) err.write(`shardlens: ${note}\n`);
    if (indexed.gitignored > 0)
      err.write(`shardlens: left out ${indexed.gitignored} files and folders named in .gitignore\n`);
    for (const { folder, packages } of indexed.installed) err.write(`shardlens: ${installedNote(folder, packages)}\n`);
    if (indexed.compiled > 0) err.write(`shardlens: ${compiledNote(indexed.compiled)}\n`);
    if (indexed.excluded > 0) err.write(`shardlens: left out ${indexed.excluded} files the project config excludes\n`);
  }
  if (unused.length) err.write(formatUnusedIgnores(unused));
  times.mark('report');
  err.write(times.format());
  // An unused comment is a warning: it fails the run at --fail-on warning or lower.
  const unusedFails = unused.length > 0 && (options.failOn === 'warning' || options.failOn === 'info');
  if (options.writeBaseline) return 0;
  return reachesFailOn(results, options.failOn) || unusedFails ? 1 : 0;
}

/** `shardlens keys`: lists the logical keys, or links concrete keys to them (`--match`). */
export async function keys(
  options: KeysOptions,
  out: NodeJS.WritableStream,
  err: NodeJS.WritableStream,
): Promise<number> {
  const indexed = await indexPaths(options.paths, options.maxFileBytes, err);
  if (!indexed) return 2;
  const { index } = indexed;
  err.write(formatSkipped(skippedOf(index.results(), indexed.unreadable)));
  const json = options.format === 'json';
  if (options.match) {
    out.write(
      json
        ? JSON.stringify(toJsonMatches(options.match, index), null, 2) + '\n'
        : formatMatchText(options.match, index),
    );
  } else {
    // A tenant routed by a hash (SL021) is no key of any store: keys leaves its routes out.
    const tables = index.keys().filter((t) => subjectOfTable(t) !== 'tenant-route');
    out.write(json ? JSON.stringify(toJsonKeys(tables), null, 2) + '\n' : formatKeysText(tables));
  }
  return 0;
}

export async function main(argv: string[]): Promise<number> {
  // The AWS SDK's Node-version notice (heat, check --heat): one line on stderr, not seven.
  routeSdkNodeWarning((line) => process.stderr.write(`shardlens: note: ${line}\n`));
  try {
    if (argv[0] === 'lab') return await labMain(argv.slice(1));
    if (argv[0] === 'expr') return exprMain(argv.slice(1), process.stdout, process.stderr);
    const parsed = parseArgs(argv);
    if (parsed.command === 'help') {
      process.stdout.write(USAGE + '\n');
      return 0;
    }
    if (parsed.command === 'version') {
      process.stdout.write(VERSION + '\n');
      return 0;
    }
    if (parsed.command === 'keys') return await keys(parsed.options, process.stdout, process.stderr);
    if (parsed.command === 'heat') {
      const indexed = await indexPaths(parsed.options.paths, parsed.options.maxFileBytes, process.stderr);
      if (!indexed) return 2;
      const { heatCommand } = loadHeat();
      return await heatCommand(parsed.options, indexed.index, process.stdout, process.stderr);
    }
    return await check(parsed.options, process.stdout, process.stderr);
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`shardlens: ${e.message}\n\n${USAGE}\n`);
      return 2;
    }
    process.stderr.write(`shardlens: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    return 3;
  }
}

// The analysis thread loads this same bundle: only the main thread runs the command.
if (require.main === module && isMainThread) {
  void main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}

function isDirectory(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}
