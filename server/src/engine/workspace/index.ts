import type { AnalyzeOptions, FileAnalysis } from '../analyze';
import { compileMatcher, type KeyMatch, type Matcher } from '../keys/matcher';
import type { Access, Finding, SourceLanguage } from '../model';
import type { AccessReach, FileReach, InfraDeclarations } from '../model/entry-point';
import { entryReachOf } from './access-reach';
import type { CallGraph } from '../entry-points';
import type { FileBindings } from './env-binder';
import { findingsFor, results, silencedIn } from './file-results';
import {
  analyzeFile,
  forgetFile,
  readEntryFile,
  refreshDependents,
  storeAnalysis,
  takeReread,
  updateFile,
} from './file-updates';
import type { InfraRead, InfraReadEntry, InfraRegistry } from './infra';
import { readAfterEdit, readInfrastructure } from './infra-reads';
import type { IndexOptions, IndexState } from './index-state';
import { createIndexState } from './index-wiring';
import type { ModuleConstants } from './modules';
import {
  analyzeWrapperCallers,
  earlyWriterFiles,
  passesMayAnalyse,
  refreshEarlyWriters,
  wrapperCallersPending,
  type EarlyWriters,
  type PassTarget,
} from './passes';
import { listKeys, keyPatterns, type TableEntry } from './query';

export type { CallSiteEntry, IndexEntry, KeyEntry, TableEntry } from './query';
export type { IndexOptions } from './index-state';

/**
 * Every call site of a workspace, grouped by logical key, with the cross-file
 * findings of each key. Updating one file re-extracts that file only and re-checks
 * only the keys it touched before or touches now.
 *
 * The cross-file rules run per key *family* (key-groups.ts): the logical key without
 * its table, because a call whose table is unknown may address any table. The strings
 * `set`, `update` and `remove` return are these families (`PK = BOARD#global`), to pass
 * to `filesOf`.
 *
 * Public queries (plain data, no class of the index leaks out):
 * - `findingsFor(file)`, `results()`: each file's findings, cross-file ones included;
 * - `keys()`: tables → indexes → logical keys → call sites (read/write, file, range,
 *   findings), see `query.ts`;
 * - `match(concrete)`: the logical key(s) and shard a concrete key as DynamoDB stores it
 *   belongs to (`BOARD#global#7` → `leaderboard · PK = BOARD#global`, shard 7).
 *
 * What the index holds is one record (index-state.ts, made in index-wiring.ts), and the
 * methods hand it to the modules that work on it: file-updates.ts (storing an analysis and
 * what a file's change sets off), cross-file-rules.ts and code-findings.ts (a key family's
 * and a file's findings), file-results.ts (with the findings on table definitions merged
 * in), access-reach.ts and infra-reads.ts.
 */
export class WorkspaceIndex {
  private readonly s: IndexState;
  /** The compiled matcher, kept until the index's next change (`IndexState.version`). */
  private matcherCache: { version: number; matcher: Matcher } | null = null;
  /** The infrastructure files (templates, Serverless services) and what they declare. */
  readonly infra: InfraRegistry;

  constructor(options: IndexOptions) {
    this.s = createIndexState(options);
    this.infra = this.s.infra;
  }

  /**
   * Notes what a file the pre-scan passed over imports, from its text in hand (the
   * parallel indexer calls this for the files it does not send to be analysed).
   */
  noteImports(analysis: FileAnalysis, text: string, passed?: boolean): void {
    this.s.facts.noteImports(analysis, text, passed);
  }

  /**
   * Reads infrastructure files (templates, Serverless services; `collectFiles` lists
   * them) from their open buffer or disk. Returns whether what they declare changed.
   * `restored`: an earlier run's reads (the analysis cache's), taken where they still hold.
   */
  readInfrastructure(files: Iterable<string>, restored?: Record<string, InfraReadEntry>): boolean {
    return readInfrastructure(this.s, files, restored);
  }

  /**
   * `file` changed on disk, was created or deleted: reads again the infrastructure files
   * whose reading looked at it (an included resources file, a `serverless.ts` function
   * module, a handler, a Terraform module's other file). Whether what they declare changed.
   */
  readDependents(file: string): boolean {
    return readInfrastructure(this.s, this.infra.dependents(file));
  }

  /**
   * An open source file was edited: reads again the `serverless.ts` or CDK file it is, and
   * the templates, `serverless.ts` and (for a CDK file) the CDK files that read it. Whether
   * what they declare changed.
   */
  readAfterEdit(file: string): boolean {
    return readAfterEdit(this.s, file);
  }

  /** An infrastructure file was deleted. */
  removeInfrastructure(file: string): boolean {
    return this.infra.remove(file);
  }

  /**
   * Re-analyses the files whose environment-named tables a change of the infrastructure
   * files (or of a handler's imports) resolves differently. Returns the key families touched.
   */
  rebindEnv(): Set<string> {
    return this.s.env.rebind();
  }

  /** The tables a file's analysis was made with (env-binder.ts `boundOf`), for the analysis cache. */
  bindingsOf(file: string): FileBindings | undefined {
    return this.s.env.boundOf(file);
  }

  /** A file restored from the analysis cache was analysed with `bindings`. */
  restoreBindings(file: string, bindings: FileBindings): void {
    this.s.env.restoreBound(file, bindings);
  }

  /** What every infrastructure file of the workspace declares, in path order. */
  infrastructure(): InfraDeclarations[] {
    return this.infra.declarations();
  }

  /** Every infrastructure file read, with what it declares or why it was not read. */
  infrastructureReads(): InfraRead[] {
    return this.infra.reads();
  }

  /** Analyses a whole workspace's files: each file, then the files that call its wrappers. */
  analyzeAll(files: readonly string[]): void {
    for (const f of files) analyzeFile(this.s, f, false);
    this.completePasses(files);
  }

  /**
   * Once every file of `files` is in (analysed one by one, in any order): the files that
   * call a wrapper found among them, then the writers of tables defined in files that
   * came after them. Returns the key families touched. `settled`: files restored from a
   * cache made with the same workspace facts, which the passes already went through.
   */
  completePasses(files: Iterable<string>, settled?: ReadonlySet<string>): Set<string> {
    const touched = analyzeWrapperCallers(this.s.passTarget, files, settled);
    for (const key of refreshEarlyWriters(this.s.passTarget, settled)) touched.add(key);
    for (const key of this.s.env.rebind()) touched.add(key);
    // A handler file read only for its entry points (it calls no wrapper) may import the
    // module whose environment-named table its function's environment sets: bound again.
    if (this.readEntryFiles() > 0) for (const key of this.s.env.rebind()) touched.add(key);
    return touched;
  }

  /**
   * Reads the files the pre-scan passed over that declare entry points into code the
   * index holds (reach.ts): their reach joins their analysis, so the cache keeps it.
   * Returns how many were read.
   */
  readEntryFiles(): number {
    return this.s.reach.readEntryFiles((analysis) => storeAnalysis(this.s, analysis));
  }

  /**
   * The files whose accesses are reached otherwise since their findings were last asked
   * for (an edit added a route or removed a call): their findings may read differently.
   */
  filesReachedOtherwise(): string[] {
    return this.s.reach.filesReachedOtherwise();
  }

  /**
   * Whether a file the pre-scan passed over may declare entry points, when that was looked
   * at (its text read for it): the analysis cache keeps the answer, so a warm run does not
   * read the file again to ask.
   */
  entryMarkOf(file: string): boolean | undefined {
    const analysis = this.s.files.get(file);
    return analysis && this.s.reach.markOf(analysis);
  }

  /** A file restored from the analysis cache was looked at for entry points with the same text. */
  restoreEntryMark(file: string, marked: boolean): void {
    const analysis = this.s.files.get(file);
    if (analysis) this.s.reach.restoreMark(analysis, marked);
  }

  /** The files the pre-scan passed over that `completePasses` would read for their entry points once `pending` is in. */
  plannedEntryFiles(pending: Iterable<string>): string[] {
    return this.s.reach.plannedEntryFiles(pending);
  }

  /** The reach of a file the pre-scan passed over, read elsewhere (the CLI's analysis thread). */
  setEntryReach(file: string, reach: FileReach): void {
    const analysis = this.s.files.get(file);
    if (analysis && !analysis.reach && !analysis.accesses.length) storeAnalysis(this.s, { ...analysis, reach });
  }

  /** After `file` changed: reads it for its entry points when it declares some into code the index holds. */
  readEntryFile(file: string): boolean {
    return readEntryFile(this.s, file);
  }

  /**
   * The writers `completePasses` would analyse again for table definitions that came after
   * them, as things stand (no wrapper caller analysed yet), with the definitions to read them with.
   */
  earlyWriters(files: Iterable<string>, settled?: ReadonlySet<string>): EarlyWriters | null {
    // The wrapper-caller pass comes first and may tell more definitions: then they are read here, after it.
    if (wrapperCallersPending(this.s.passTarget, files, settled)) return null;
    return { files: earlyWriterFiles(this.s.passTarget, settled), definitions: this.s.facts.tableDefinitions() };
  }

  /**
   * Whether `completePasses` may analyse a file, so that a caller that analysed the
   * workspace elsewhere (the CLI's analysis thread) loads the parsers only then.
   */
  passesMayAnalyse(files: Iterable<string>, settled?: ReadonlySet<string>): boolean {
    // A handler's imports may bind more files once every file is in: only a file whose bindings moved is analysed.
    return (
      passesMayAnalyse(this.s.passTarget, files, settled) ||
      this.s.env.wouldReanalyse() ||
      this.s.reach.entryFilesToRead().length > 0
    );
  }

  /** The cross-file state the analysis cache (cache/) saves and restores. */
  get crossFile(): { modules: ModuleConstants; pass: PassTarget } {
    return { modules: this.s.modules, pass: this.s.passTarget };
  }

  /** The options to analyse a file of this workspace with (imports resolve across files). */
  get fileOptions(): AnalyzeOptions {
    return this.s.analyzeOptions;
  }

  /** Reads and analyses one file (file-updates.ts `analyzeFile`); returns the keys it touches. */
  analyzeFile(file: string, refresh = true): Set<string> {
    return analyzeFile(this.s, file, refresh);
  }

  /** Analyses one file's text (file-updates.ts `updateFile`); returns the key families touched. */
  update(file: string, text: string, language: SourceLanguage, refresh = true, priorReach?: FileReach): Set<string> {
    return updateFile(this.s, file, text, language, refresh, priorReach);
  }

  /** A module changed: re-analyses the files that used its constants (file-updates.ts). */
  refreshDependents(file: string): Set<string> {
    return refreshDependents(this.s, file);
  }

  /** The files `refreshDependents` analysed again since last asked (file-updates.ts `takeReread`). */
  takeReread(): string[] {
    return takeReread(this.s);
  }

  /**
   * Stores an analysis made elsewhere (the editor's open document); returns the key
   * families whose change other files can see (file-updates.ts `storeAnalysis`).
   */
  set(analysis: FileAnalysis): Set<string> {
    return storeAnalysis(this.s, analysis);
  }

  /** A package.json or workspace list changed: what imports of the monorepo's packages name is read again. */
  manifestsChanged(): void {
    this.s.modules.manifestsChanged();
  }

  remove(file: string): Set<string> {
    return forgetFile(this.s, file);
  }

  /**
   * One file's findings: its own and the cross-file ones placed in it, and those on the
   * table definitions it holds (SL013, made from every file's), sorted by position.
   */
  findingsFor(file: string, used?: Set<string>): Finding[] {
    return findingsFor(this.s, file, used);
  }

  /** The files holding table definitions, where findings on them (SL013) may sit. */
  definitionFiles(): string[] {
    return [...this.s.definitions.files()].sort();
  }

  /** The `shardlens-ignore` lines of a file holding table definitions (a template's from its comments). */
  definitionIgnores(file: string): Array<[number, string[]]> {
    return this.s.definitions.ignoresOf(file);
  }

  /** How an access is reached (its entry points), when the reachability pass could tell. */
  entryReachOf(a: Access): AccessReach | undefined {
    return entryReachOf(this.s, a);
  }

  /** The calls of the workspace's functions, each name resolved through the caller's imports. */
  callGraph(): CallGraph {
    return this.s.reach.calls();
  }

  /** `line:rule` of each finding in `file` a `shardlens-ignore` comment silenced, its own and cross-file. */
  silencedIn(file: string): Set<string> {
    return silencedIn(this.s, file);
  }

  /**
   * Every file's analysis with cross-file findings merged in, in path order, and an entry
   * (`infrastructure: true`) for each infrastructure file that holds findings on the
   * tables it declares (file-results.ts).
   */
  results(): FileAnalysis[] {
    return results(this.s);
  }

  /** The workspace's tables → indexes → logical keys → call sites, as plain data (see `query.ts`). */
  keys(): TableEntry[] {
    return listKeys(this.results());
  }

  /** The logical key(s) a concrete key belongs to, and its shard; [] when no template matches. */
  match(concrete: string): KeyMatch[] {
    if (this.matcherCache?.version !== this.s.version) {
      this.matcherCache = { version: this.s.version, matcher: compileMatcher(keyPatterns(this.s.files.values())) };
    }
    return this.matcherCache.matcher(concrete);
  }

  /** The files holding accesses of these key families: whose findings a change may alter. */
  filesOf(keys: Iterable<string>): Set<string> {
    return this.s.groups.filesOf(keys);
  }

  /**
   * The files whose findings a change to `changed` may alter: those files, the modules that
   * import them (one level, as `refreshDependents`), and every file sharing a key family
   * with any of these (the other side of a cross-file rule).
   */
  reachOf(changed: Iterable<string>): Set<string> {
    const near = new Set<string>();
    for (const f of changed) {
      if (!this.s.files.has(f)) continue;
      near.add(f);
      for (const d of this.s.modules.dependentsOf(f)) if (this.s.files.has(d)) near.add(d);
    }
    const out = new Set(near);
    for (const f of near) for (const g of this.filesOf(this.s.groups.familiesIn(f))) out.add(g);
    return out;
  }

  /** Every file analysed, with its analysis (own findings only). */
  analyses(): IterableIterator<FileAnalysis> {
    return this.s.files.values();
  }

  has(file: string): boolean {
    return this.s.files.has(file);
  }

  /** The file's analysis as the index keeps it (with what other files told it), if it has one. */
  analysisOf(file: string): FileAnalysis | undefined {
    return this.s.files.get(file);
  }

  get size(): number {
    return this.s.files.size;
  }
}

/**
 * What the workspace's infrastructure code declares: per template or Serverless service,
 * its functions (handler source file, triggers as entry points, environment) and tables.
 * The reachability pass reads the triggers from here.
 */
export function infrastructureOf(index: WorkspaceIndex): InfraDeclarations[] {
  return index.infrastructure();
}
