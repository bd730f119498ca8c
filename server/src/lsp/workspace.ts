import * as path from 'node:path';
import { minimatch } from 'minimatch';
import type { Connection, Diagnostic } from 'vscode-languageserver';
import { DiagnosticSeverity } from 'vscode-languageserver';
import { StatusNotification, type CheckWorkspaceResult, type WorkspaceStatus } from '../../../protocol/src/lsp';
import {
  type Access,
  type AnalysisCache,
  collectFiles,
  installedNote,
  compiledNote,
  compiledOutputsOf,
  walkListsPath,
  noteWalkedFolder,
  isInfrastructureCandidate,
  countCoverage,
  type FileAnalysis,
  fileCoverage,
  type InfraTable,
  type FileCoverage,
  type Finding,
  reachedBy,
  reachedSites,
  WorkspaceIndex,
} from '../engine';
import { CODE_CONTEXTS, type CodeContext, type ShardLensSettings } from '../../../protocol/src/settings';
import { serverCache } from './index-cache';
import { keyToUri, pathToUri } from './convert';
import { withLiveFindings } from './live-findings';
import type { LiveHeat } from './live-heat';
import { toDiagnostics } from './diagnostics';
import { OpenDocuments } from './open-documents';
import type { SettingsStore } from './settings';
import { excludedByConfig } from '../config/apply';
import { configFor } from '../config/project-config';
import { timeSlicer, yieldToEvents } from './yield';

const BATCH = 25;

/**
 * The workspace as the server sees it: one index per folder (cross-file rules need
 * every file), the open documents layered on top, and the diagnostics published.
 */
export class Workspace {
  private readonly indexes = new Map<string, WorkspaceIndex>();
  private readonly published = new Map<string, { errors: number; warnings: number; infos: number }>();
  /** The diagnostics last sent for each file holding table definitions, as JSON: sent again only when they change. */
  private readonly sentDefinitions = new Map<string, string>();
  private indexing = false;
  /**
   * False until the first full index is done and published: a document opened before then is published
   * alone, and the status must not then read as the workspace's count ("0").
   */
  private indexed = false;
  /** Each folder's `shardlens.contexts`, which its index analyses with (absent: all contexts). */
  private readonly contexts = new Map<string, CodeContext[]>();
  private live: LiveHeat | null = null;
  /** Bumped on every change of any file's analysis: what was computed from the workspace before is stale. */
  generation = 0;

  constructor(
    private readonly connection: Connection,
    private readonly settings: SettingsStore,
    private readonly docs: OpenDocuments,
    private folders: string[],
    /**
     * The grammars' loading (`initParsers`): an index waits for it only once its walk is
     * done, where a file may first need parsing, so the walk and the loading overlap.
     */
    private readonly parsersReady: Promise<void>,
    /** Where the analysis cache may go (the client's storage), see index-cache.ts. */
    private readonly cacheStorage?: string,
  ) {}

  /** Whether a full index is under way: the index then changes without the generation moving. */
  get indexingNow(): boolean {
    return this.indexing;
  }

  /** Live heat adds evidence and SL009 findings to what is published. */
  setLive(live: LiveHeat): void {
    this.live = live;
  }

  /** The folder indexes (one per workspace folder, and one per folder of loose files). */
  allIndexes(): WorkspaceIndex[] {
    return [...this.indexes.values()];
  }

  /**
   * Reads every folder's `shardlens.contexts`; a folder whose contexts changed drops its
   * index (the next `indexFor` builds it with them). True when one changed: the caller
   * then re-analyses the open documents and indexes again.
   */
  async applyContexts(): Promise<boolean> {
    let changed = false;
    for (const folder of this.folders) {
      const wanted = (await this.settings.get(pathToUri(folder))).contexts;
      const had = this.contexts.get(folder);
      if (had && had.join() === wanted.join()) continue;
      // A folder read for the first time with every context needs no new index.
      if (!had && wanted.length === CODE_CONTEXTS.length) {
        this.contexts.set(folder, wanted);
        continue;
      }
      this.contexts.set(folder, wanted);
      this.indexes.delete(folder);
      this.generation++;
      changed = true;
    }
    return changed;
  }

  setFolders(folders: string[]): void {
    this.folders = folders;
    for (const f of [...this.indexes.keys()]) if (!folders.includes(f)) this.indexes.delete(f);
    this.generation++;
  }

  /** Whether the walk of the folder holding `file` lists it by its path (`walkListsPath`); a loose file is. */
  private listedByWalk(file: string): boolean {
    const folder = this.folderBelow(file);
    return !folder || walkListsPath(folder, file);
  }

  /** The deepest workspace folder `file` lies below (`orSelf`: or is), if any. */
  private folderBelow(file: string, orSelf = false): string | undefined {
    const holds = (f: string) => (orSelf && file === f) || file.startsWith(f + path.sep);
    return this.folders.filter(holds).sort((a, b) => b.length - a.length)[0];
  }

  /** Whether `file` lies in one of the workspace folders (else it is a loose file, open on its own). */
  inFolders(file: string): boolean {
    return this.folders.some((f) => file === f || file.startsWith(f + path.sep));
  }

  /** The index of the folder holding `file` (the deepest), or one for loose files. */
  indexFor(file: string): WorkspaceIndex {
    const folder = this.folderBelow(file, true) ?? (path.isAbsolute(file) ? path.dirname(file) : '');
    let index = this.indexes.get(folder);
    if (!index) {
      index = new WorkspaceIndex({
        root: folder || process.cwd(),
        openText: (f) => this.docs.textOf(f),
        contexts: this.contexts.get(folder),
      });
      this.indexes.set(folder, index);
    }
    return index;
  }

  /** The analysis cache of the folder holding `file` (none for loose files, or with `shardlens.cache.enabled` off). */
  private async cacheFor(file: string): Promise<AnalysisCache | null> {
    const folder = this.folderBelow(file);
    if (!folder || !(await this.settings.get(pathToUri(folder))).cache.enabled) return null;
    const notice = (line: string) => this.connection.console.warn(`ShardLens: ${line}`);
    return serverCache(folder, this.contexts.get(folder), this.cacheStorage, (f) => this.docs.textOf(f), notice);
  }

  private async excluded(key: string): Promise<boolean> {
    // A file's key is its path: asked by path, not through a URI and back (once per file on a start).
    const settings = path.isAbsolute(key) ? this.settings.forFile(key) : this.settings.get(key);
    return this.excludedBy(key, await settings);
  }

  private excludedBy(key: string, s: ShardLensSettings): boolean {
    if (!s.enable) return true;
    // The user's globs (relative to the folder) and the project config's (relative to it).
    return this.excludedBySettings(key, s.exclude) || excludedByConfig(configFor(key), key);
  }

  private excludedBySettings(key: string, globs: readonly string[]): boolean {
    if (globs.length === 0) return false;
    const folder = this.folders.find((f) => key.startsWith(f + path.sep));
    const rel = folder ? path.relative(folder, key).split(path.sep).join('/') : key;
    return globs.some((g) => minimatch(rel, g, { dot: true }));
  }

  /** Indexes every folder from disk (open documents keep their buffers), with progress. */
  async indexAll(): Promise<CheckWorkspaceResult> {
    const started = performance.now();
    this.indexing = true;
    this.sendStatus();
    const progress = await this.connection.window.createWorkDoneProgress();
    const skipped: CheckWorkspaceResult['skipped'] = [];
    let read = false;
    try {
      const lists = this.folders.map((folder) => collectFiles([folder], { onFolder: noteWalkedFolder }));
      const files = lists.flatMap((l) => l.files);
      for (const { folder, packages } of lists.flatMap((l) => l.installed))
        this.connection.console.info(`ShardLens: ${installedNote(folder, packages)}`);
      const compiled = lists.reduce((n, l) => n + l.compiled, 0);
      if (compiled > 0) this.connection.console.info(`ShardLens: ${compiledNote(compiled)}`);
      await this.parsersReady;
      const perIndex = new Map<WorkspaceIndex, string[]>();
      const caches = new Map<WorkspaceIndex, AnalysisCache | null>();
      const cacheOf = async (index: WorkspaceIndex, file: string) => {
        if (!caches.has(index)) caches.set(index, await this.cacheFor(file));
        return caches.get(index)!;
      };
      // Templates first: the functions they declare name the tables of environment variables.
      // A template whose text and the files it read hash as the cache recorded is not parsed again.
      for (const file of lists.flatMap((l) => l.infrastructure)) {
        if (await this.excluded(file)) continue;
        const index = this.indexFor(file);
        index.readInfrastructure([file], (await cacheOf(index, file))?.infraReads());
      }
      progress.begin('ShardLens: indexing', 0, `${files.length} files`, false);
      for (let i = 0; i < files.length; i++) {
        const file = files[i];
        if (await this.excluded(file)) continue;
        const index = this.indexFor(file);
        const own = perIndex.get(index);
        if (own) own.push(file);
        else perIndex.set(index, [file]);
        const cache = await cacheOf(index, file);
        // An open document's own (incrementally kept) analysis stands for the file.
        const open = this.docs.analysisOf(file);
        if (open) index.set(open);
        else if (!cache?.restoreFile(file, index)) index.analyzeFile(file, false);
        if (i % BATCH === BATCH - 1) {
          progress.report(Math.round(((i + 1) / files.length) * 100), `${i + 1} of ${files.length} files`);
          await yieldToEvents();
        }
      }
      // What needs every file in: callers of wrappers the pre-scan passed over, writers of tables defined later.
      progress.report(100, 'following wrappers and table definitions');
      for (const [index, own] of perIndex) {
        const cache = caches.get(index);
        index.completePasses(own, cache?.settled);
        cache?.reconcile(index, own);
        // Written once the findings are out: not on the way to the first diagnostics.
        if (!cache) continue;
        const templates = index.infrastructureReads().length;
        const restored = templates ? `; ${index.infra.restoredCount} of ${templates} infrastructure files from it` : '';
        this.connection.console.info(
          `ShardLens: indexed ${own.length} files, ${cache.hits} from the analysis cache${restored}`,
        );
        setImmediate(() => cache.save(index, own));
      }
      for (const index of this.indexes.values()) {
        for (const a of index.analyses()) if (a.skipped) skipped.push({ file: a.file, reason: a.skipped });
      }
      read = true;
    } finally {
      this.indexing = false;
      // A failed index is over too: the status must not say "indexing" for ever.
      if (!read) this.indexed = true;
      progress.done();
    }
    this.live?.invalidate();
    this.generation++;
    // Until every file is published the first index is not done: a status another publish
    // sends meanwhile (an open document's) says "indexing", not the count of the files sent so far.
    try {
      await this.publishAll();
    } finally {
      this.indexed = true;
      this.sendStatus();
    }
    return { ...this.status(), skipped, durationMs: Math.round(performance.now() - started) };
  }

  /** The tables declared in an infrastructure file (or an included resources file), as read. */
  tablesDeclaredIn(key: string): InfraTable[] {
    return this.indexFor(key)
      .infrastructure()
      .flatMap((d) => d.tables)
      .filter((t) => t.source.file === key);
  }

  /** Stores a fresh analysis of one file and republishes every file whose findings it may change. */
  async update(analysis: FileAnalysis): Promise<void> {
    this.live?.invalidate();
    this.generation++;
    const index = this.indexFor(analysis.file);
    const keys = index.set(analysis);
    // The files that read this module (an entity a repository uses through a service): what
    // they read of it may have changed with the edit, as when the file changes on disk.
    for (const k of index.refreshDependents(analysis.file)) keys.add(k);
    index.readEntryFile(analysis.file);
    // A serverless.ts, or a module one builds its functions from, edited: its functions and tables are read again.
    if (index.readAfterEdit(analysis.file)) for (const k of index.rebindEnv()) keys.add(k);
    // Reach is worked out again only where the edit changed the graph: those files' findings move too.
    await this.publish([
      analysis.file,
      ...index.takeReread(),
      ...index.filesOf(keys),
      ...index.filesReachedOtherwise(),
    ]);
  }

  /** A file changed on disk (or was closed): analyse it from its current text. */
  async refreshFile(key: string): Promise<void> {
    // A rebuilt `dist/` or a re-run `pip install -t layer/python` changes files the walk never
    // lists: not the project's code. Dropped if held (a document closed there), else ignored.
    if (!this.listedByWalk(key)) return this.indexFor(key).analysisOf(key) ? this.forget(key) : undefined;
    // A TypeScript file written beside tsc's output of it (`a.ts` next to `a.js`): the output
    // stops being the project's code, as the walk would say (compiled-output.ts).
    for (const js of compiledOutputsOf(path.basename(key)).map((n) => path.join(path.dirname(key), n)))
      if (this.indexFor(js).analysisOf(js)) await this.forget(js);
    this.live?.invalidate();
    this.generation++;
    if (await this.excluded(key)) return this.forget(key);
    // Findings kept while the settings were read were kept for the index before this change.
    this.generation++;
    const index = this.indexFor(key);
    const keys = index.analyzeFile(key);
    // A template, a Serverless service or a CDK app's file: the files whose environment tables it names are judged again.
    const own = (isInfrastructureCandidate(key) || index.infra.mayDeclare(key)) && index.readInfrastructure([key]);
    // And the templates that read it: an included resources file, a function module, a handler.
    if (index.readDependents(key) || own) for (const k of index.rebindEnv()) keys.add(k);
    await this.publish([key, ...index.takeReread(), ...index.filesOf(keys), ...index.filesReachedOtherwise()]);
  }

  /** A package.json or workspace list changed: each index reads the monorepo's package names again. */
  manifestsChanged(): void {
    for (const index of this.indexes.values()) index.manifestsChanged();
  }

  async forget(key: string): Promise<void> {
    this.live?.invalidate();
    this.generation++;
    const index = this.indexFor(key);
    const keys = index.remove(key);
    const own = index.removeInfrastructure(key);
    if (index.readDependents(key) || own) for (const k of index.rebindEnv()) keys.add(k);
    // And the files that looked up a connection or a model it made by name (analysed again).
    await this.publish([key, ...index.takeReread(), ...index.filesOf(keys)]);
  }

  /**
   * A file's findings as published: none when it is excluded (an open document still is
   * analysed); with live heat, the evidence and SL009 findings added.
   */
  async findingsFor(key: string): Promise<Finding[]> {
    const own = await this.ownFindings(key);
    return this.live ? withLiveFindings(key, own, await this.live.reports()) : own;
  }

  /**
   * A file's own findings (before live heat), kept per generation and settings: a hover,
   * the code actions, the publish and the fixes each asked for them again, every time
   * gathering its cross-file findings and matching its path against the exclude globs.
   * The index changes only with the generation (but during a full index), exclusion only
   * with the settings (a config change makes new ones).
   */
  private async ownFindings(key: string): Promise<Finding[]> {
    const settings = await this.settings.get(keyToUri(key));
    const kept = this.own.get(key);
    if (kept && kept.generation === this.generation && kept.settings === settings && !this.indexing)
      return kept.findings;
    const findings = this.excludedBy(key, settings) ? [] : this.indexFor(key).findingsFor(key);
    if (!this.indexing) this.own.set(key, { generation: this.generation, settings, findings });
    return findings;
  }
  private readonly own = new Map<string, { generation: number; settings: ShardLensSettings; findings: Finding[] }>();

  /**
   * Whether callers in other modules reach this call through a wrapper (their accesses
   * name it in `through`): its key is then judged at them, and the hover says so.
   */
  reachedFromCallers(a: Access): boolean {
    // Every access of the workspace is read for it: once per generation, not on each hover.
    // (While indexing, the index fills in without moving the generation.)
    if (this.indexing || this.reached?.generation !== this.generation)
      this.reached = {
        generation: this.generation,
        sites: reachedSites(this.allIndexes().flatMap((i) => [...i.analyses()])),
      };
    return reachedBy(this.reached.sites, a);
  }
  private reached: { generation: number; sites: Set<string> } | null = null;

  async publishAll(): Promise<void> {
    const files = new Set<string>(this.published.keys());
    for (const index of this.indexes.values()) for (const a of index.analyses()) files.add(a.file);
    await this.publish(files);
  }

  private async publish(files: Iterable<string>): Promise<void> {
    const definitions = definitionFilesOf(this.allIndexes(), this.sentDefinitions.keys());
    // A hover sent while many files are published is answered between them.
    const slice = timeSlicer();
    for (const key of new Set(files)) {
      if (definitions.has(key)) continue;
      await this.publishFile(key);
      await slice();
    }
    // The findings on table definitions (SL013) follow every file's hot keys: each
    // template's are worked out again (once per index version) and sent when they differ.
    for (const key of definitions) await this.publishFile(key, true);
    this.sendStatus();
  }

  private async publishFile(key: string, definitions = false): Promise<void> {
    const uri = keyToUri(key);
    const diagnostics = toDiagnostics(await this.findingsFor(key), await this.settings.get(uri));
    if (definitions) {
      const sent = JSON.stringify(diagnostics);
      if (sent === (this.sentDefinitions.get(key) ?? '[]')) return;
      if (diagnostics.length) this.sentDefinitions.set(key, sent);
      else this.sentDefinitions.delete(key);
    }
    if (diagnostics.length === 0 && !this.published.has(key)) return;
    await this.connection.sendDiagnostics({ uri, diagnostics });
    if (diagnostics.length > 0) this.published.set(key, count(diagnostics));
    else this.published.delete(key);
  }

  private status(): WorkspaceStatus {
    const s: WorkspaceStatus = {
      indexing: this.indexing || !this.indexed,
      files: 0,
      errors: 0,
      warnings: 0,
      infos: 0,
      calls: 0,
      resolved: 0,
    };
    const files: FileCoverage[] = [];
    for (const index of this.indexes.values()) {
      s.files += index.size;
      // A file without accesses counts nothing (most of a workspace): the status follows every edit.
      for (const a of index.analyses()) if (a.accesses.length) files.push(coverageFor(a.accesses));
    }
    Object.assign(s, countCoverage(files));
    for (const c of this.published.values()) {
      s.errors += c.errors;
      s.warnings += c.warnings;
      s.infos += c.infos;
    }
    return s;
  }

  private sendStatus(): void {
    void this.connection.sendNotification(StatusNotification, this.status());
  }
}

/**
 * One file's part of the coverage counts. The status is sent after every publish (each
 * edit of an open file): it is computed once per analysis, keyed by its accesses array,
 * which a new analysis replaces.
 */
const coverageOfFile = new WeakMap<Access[], FileCoverage>();
function coverageFor(accesses: Access[]): FileCoverage {
  let c = coverageOfFile.get(accesses);
  if (!c) coverageOfFile.set(accesses, (c = fileCoverage(accesses)));
  return c;
}

/** The files holding table definitions in any index, and those that held some when last published. */
function definitionFilesOf(indexes: WorkspaceIndex[], sent: Iterable<string>): Set<string> {
  const out = new Set(sent);
  for (const index of indexes) for (const file of index.definitionFiles()) out.add(file);
  return out;
}

function count(ds: Diagnostic[]) {
  return {
    errors: ds.filter((d) => d.severity === DiagnosticSeverity.Error).length,
    warnings: ds.filter((d) => d.severity === DiagnosticSeverity.Warning).length,
    infos: ds.filter((d) => d.severity === DiagnosticSeverity.Information).length,
  };
}
