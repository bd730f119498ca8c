import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import {
  type AnalysisCache,
  analyzeSource,
  emptyAnalysis,
  type FileAnalysis,
  type FileEnv,
  type FileReach,
  initParsers,
  reachOfText,
  readFromDisk,
  judgeAnalysis,
  languageForFile,
  mayContainDynamoDbCalls,
  ModuleConstants,
  type NamedTable,
  readSource,
  reasonToSkip,
  readsHold,
  type ModuleRead,
  type Resolution,
  type WorkspaceLookup,
  type SourceLanguage,
  type TableDefinition,
  type WorkspaceIndex,
} from '../engine';

interface Job {
  file: string;
  text: string;
  language: SourceLanguage;
  /** The tables environment variables name in the file, worked out here from the workspace's templates. */
  env: FileEnv | null;
  /** The tables templates declare by name, for the file's literal table names. */
  named?: readonly NamedTable[];
  /** Read only for what it tells the reachability pass (a route file the pre-scan passed over). */
  reachOnly?: true;
  /** The reads its cached analysis recorded (modules it read changed): asked first, analysed only if one answers otherwise. */
  verify?: ModuleRead[];
  /**
   * A writer analysed again with the workspace's table definitions, which came in after it
   * (`WorkspaceIndex.earlyWriters`), with the reach its first analysis read.
   */
  refresh?: { definitions: TableDefinition[]; priorReach?: FileReach };
}

/** An analysis from the thread, with every module it read (`ModuleConstants.dependenciesOf`) and the imports it followed. */
interface Analysed {
  analysis: FileAnalysis;
  uses: string[];
  resolutions: Resolution[];
  /** What it looked up by name across the workspace (a TypeDORM connection, a Nest model). */
  lookups: WorkspaceLookup[];
}

/** A file read for its reach only; null when it could not be parsed. */
interface Reached {
  file: string;
  reach: FileReach | null;
}

/** A file whose recorded reads all answer as before: its cached analysis stands. */
interface Verified {
  file: string;
  holds: true;
}

type Done = Analysed | Reached | Verified;

/** Sent when every job is done: the thread writes its code cache if it has one to write, and exits. */
interface Bye {
  bye: true;
}

interface WorkerConfig {
  shardlensAnalyzer: true;
  root: string;
  maxBytes: number;
  /** bin/compile-cache.js, when the thread's bundle was loaded through it. */
  codeCache?: string;
}

/**
 * The worker's young generation, in MB. V8's default lets it fill tens of MB with the
 * analyses' short-lived garbage between scavenges: a tenth of a whole check's peak
 * memory. Little survives a scavenge (one file's analysis at a time), so a small one
 * costs no measurable time: on bench/workspace, 12 interleaved runs each, 8 MB took
 * 1.34 s and 145 MB, 6 MB 1.33 s and 139 MB, 4 MB 1.39 s and 140 MB (medians).
 */
const WORKER_YOUNG_MB = 6;

function startWorker(root: string, maxBytes: number): Worker {
  const options = { resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_MB } };
  const codeCache = codeCacheLoader();
  if (!codeCache)
    return new Worker(__filename, { ...options, workerData: { shardlensAnalyzer: true, root, maxBytes } });
  // The bundle through V8's code cache, as the main thread loads it: compiling it and the
  // analysis' functions was ~80 ms of the thread's start, on the path of a warm check
  // after an edit (the thread analyses the files the edit reaches).
  const config: WorkerConfig = { shardlensAnalyzer: true, root, maxBytes, codeCache };
  const load = `require(${JSON.stringify(codeCache)}).requireCached(${JSON.stringify(__filename)}, 'analysis')`;
  return new Worker(load, { ...options, eval: true, workerData: config });
}

/** bin/compile-cache.js beside the built bundle (dist/cli.js); null when running from sources. */
function codeCacheLoader(): string | null {
  if (path.basename(__filename) !== 'cli.js') return null;
  const loader = path.join(__dirname, '..', 'bin', 'compile-cache.js');
  return fs.existsSync(loader) ? loader : null;
}

/** How long a thread told its work is done may take to write its code cache and exit before it is stopped. */
const BYE_MS = 5_000;

/** Ends the thread: told first, so that it can write its code cache (a terminated thread cannot). */
async function stopWorker(worker: Worker): Promise<void> {
  if (worker.threadId < 0) return;
  const exited = new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, BYE_MS);
    timer.unref();
    worker.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
  });
  worker.postMessage({ bye: true } satisfies Bye);
  await exited;
  await worker.terminate();
}

let prestarted: { worker: Worker; root: string; maxBytes: number } | null = null;

/**
 * Starts the analysis thread now, so that it has loaded the bundle and the grammars
 * (about 100 ms) by the time `indexInParallel` sends it the first file, instead of
 * after the walk. Call it before collecting the files. A thread nobody uses does not
 * keep the process alive.
 */
export function prestartAnalysis(root: string, maxBytes: number): void {
  if (prestarted) return;
  const worker = startWorker(root, maxBytes);
  worker.unref();
  // Until indexInParallel takes it, a failure to start is that function's to report (it starts another).
  worker.on('error', () => {});
  prestarted = { worker, root, maxBytes };
}

/** The thread prestartAnalysis started, if it was for the same root and size limit; otherwise it is stopped. */
function takePrestarted(root: string, maxBytes: number): Worker | null {
  const p = prestarted;
  prestarted = null;
  if (!p) return null;
  if (p.root === root && p.maxBytes === maxBytes && p.worker.threadId >= 0) return p.worker;
  void p.worker.terminate();
  return null;
}

/**
 * Indexes many files on both cores: this thread walks, reads and pre-scans (most files
 * stop there), and a worker thread parses and analyses the few that can hold DynamoDB
 * calls. Results are stored as they come; the index sorts its output, so the order in
 * which the worker finishes does not show.
 */
export async function indexInParallel(
  index: WorkspaceIndex,
  files: string[],
  root: string,
  maxBytes: number,
  cache: AnalysisCache | null = null,
): Promise<ReadonlySet<string>> {
  // Started at the first file to analyse: a warm cache may leave it nothing to do.
  let worker: Worker | null = null;
  let reading = true;
  // The writers analysed again in the thread for the table definitions that came after them.
  let refreshed: Set<string> | null = null;
  // The texts the worker has: the rules run here, over its extraction, while it parses the next file.
  const texts = new Map<string, string>();
  const verifying = new Set<string>();
  const finished = new Promise<void>((resolve, reject) => {
    // Every file in: the writers of tables defined in files that came after them are read
    // again there, where the grammars are loaded and the analysis warm (here it would load
    // them cold for these few files: ~0.2 s on bench/workspace), before this thread's passes.
    const settle = () => {
      if (refreshed === null && worker) {
        refreshed = sendEarlyWriters(index, files, cache, texts, (job) => analyser().postMessage(job));
        if (texts.size > 0) return;
      }
      resolve();
    };
    const analyser = (): Worker => {
      if (worker) return worker;
      const w = (worker = takePrestarted(root, maxBytes) ?? startWorker(root, maxBytes));
      w.ref();
      w.on('message', (done: Done) => {
        if ('reach' in done) {
          texts.delete(done.file);
          if (done.reach) index.setEntryReach(done.file, done.reach);
        } else if ('holds' in done) {
          texts.delete(done.file);
          cache!.restoreVerified(done.file, index);
        } else {
          const { analysis, uses, resolutions, lookups } = done;
          const text = texts.get(analysis.file) ?? '';
          texts.delete(analysis.file);
          cache?.verifiedNot(analysis.file);
          index.set(judgeAnalysis(analysis, text));
          // The modules the thread read for it: a change of one refreshes it (and stales its cache entry).
          index.crossFile.modules.noteDependencies(analysis.file, uses);
          index.crossFile.modules.noteResolutions(analysis.file, resolutions);
          if (lookups.length) index.crossFile.modules.noteLookups(analysis.file, lookups);
        }
        if (texts.size === 0 && !reading) settle();
      });
      w.on('error', reject);
      w.on('exit', (code) => {
        if (texts.size > 0)
          reject(new Error(`the analysis thread stopped (exit ${code}) with ${texts.size} files left`));
      });
      return w;
    };
    for (const file of files) {
      const language = languageForFile(file);
      if (!language) continue;
      const source = cache ? cache.restoreOrRead(file, index, maxBytes) : readSource(file, maxBytes);
      if (source === true) continue;
      const skipped = 'skipped' in source ? source.skipped : reasonToSkip(source.text, maxBytes);
      if (skipped || !('text' in source) || !mayContainDynamoDbCalls(source.text)) {
        cache?.verifiedNot(file);
        const none = emptyAnalysis(file, language, skipped);
        // What it imports, while its text is in hand: the wrapper-caller pass reads only importers.
        if ('text' in source) index.noteImports(none, source.text, false);
        index.set(none);
        continue;
      }
      texts.set(file, source.text);
      const verify = 'reads' in source ? (source.reads as ModuleRead[]) : undefined;
      if (verify) verifying.add(file);
      analyser().postMessage({
        ...analysisJob(index, file, source.text, language),
        ...(verify ? { verify } : {}),
      } satisfies Job);
    }
    // Route and handler files calling into the files sent: read there too, while this thread waits
    // (here they would need the grammars loaded, cold, once the thread is done: ~0.25 s on bench/workspace).
    if (worker) {
      // Not for files likely to keep their stored analysis (their reach is in it).
      for (const file of index.plannedEntryFiles([...texts.keys()].filter((f) => !verifying.has(f)))) {
        const language = languageForFile(file);
        const text = language && readFromDisk(file);
        if (!language || text == null) continue;
        texts.set(file, text);
        analyser().postMessage({ file, text, language, env: null, reachOnly: true } satisfies Job);
      }
    }
    reading = false;
    if (texts.size === 0) settle();
  });
  try {
    await finished;
  } catch (e) {
    // Failed: the thread is stopped where it is, its queued files dropped.
    await (worker as Worker | null)?.terminate();
    throw e;
  }
  const used = worker as Worker | null;
  if (used) await stopWorker(used);
  return refreshed ?? new Set();
}

/**
 * Sends the writers `WorkspaceIndex.earlyWriters` names to the thread, with the table
 * definitions, as the passes would analyse them here; returns the files sent, which the
 * passes then leave alone. None while the wrapper-caller pass still has files to analyse.
 */
function sendEarlyWriters(
  index: WorkspaceIndex,
  files: readonly string[],
  cache: AnalysisCache | null,
  texts: Map<string, string>,
  post: (job: Job) => void,
): Set<string> {
  const sent = new Set<string>();
  const early = index.earlyWriters(files, cache?.settled);
  for (const file of early?.files ?? []) {
    const language = languageForFile(file);
    const text = language && readFromDisk(file);
    if (!language || text == null) continue;
    texts.set(file, text);
    sent.add(file);
    const priorReach = index.analysisOf(file)?.reach;
    post({
      ...analysisJob(index, file, text, language),
      refresh: { definitions: early!.definitions, ...(priorReach ? { priorReach } : {}) },
    });
  }
  return sent;
}

/** A file to analyse, with the tables its environment variables and literal names are declared as. */
function analysisJob(index: WorkspaceIndex, file: string, text: string, language: SourceLanguage): Job {
  const named = index.fileOptions.declaredTables?.(file);
  return {
    file,
    text,
    language,
    env: index.fileOptions.envTables?.(file) ?? null,
    ...(named?.length ? { named } : {}),
  };
}

/** The worker's side: analyse each file it is sent, with cross-file constants resolved from disk. */
function serveAnalyses(config: WorkerConfig): void {
  const modules = new ModuleConstants(config.root);
  const ready = initParsers();
  parentPort!.on('message', (job: Job | Bye) => {
    void ready.then(() => {
      if ('bye' in job) {
        if (config.codeCache) (createRequire(__filename)(config.codeCache) as CodeCache).writeWorkerCaches();
        process.exit(0);
      }
      if (job.reachOnly) {
        parentPort!.postMessage({
          file: job.file,
          reach: reachOfText(job.file, job.text, job.language),
        } satisfies Reached);
        return;
      }
      const { readers } = modules;
      if (job.verify && readsHold(job.verify, readers)) {
        parentPort!.postMessage({ file: job.file, holds: true } satisfies Verified);
        return;
      }
      // Imports resolve across files: constants, and the wrappers and returns of other modules.
      const options = {
        maxBytes: config.maxBytes,
        ...readers,
        recordReads: true,
        judge: false,
        envTables: () => job.env,
        declaredTables: () => job.named ?? [],
        ...(job.refresh
          ? { tableDefinitions: () => job.refresh!.definitions, priorReach: job.refresh.priorReach }
          : {}),
      };
      const analysis = analyzeSource(job.file, job.text, job.language, options);
      const uses = modules.dependenciesOf(job.file);
      const resolutions = modules.resolutionsOf(job.file);
      parentPort!.postMessage({ analysis, uses, resolutions, lookups: modules.lookupsOf(job.file) } satisfies Done);
    });
  });
}

interface CodeCache {
  writeWorkerCaches(): boolean;
}

if (!isMainThread && (workerData as WorkerConfig | undefined)?.shardlensAnalyzer) serveAnalyses(workerData);
