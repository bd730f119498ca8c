import * as path from 'node:path';
import { analyzeSource, DEFAULT_MAX_BYTES, emptyAnalysis, type AnalyzeOptions, type FileAnalysis } from '../analyze';
import { compileMatcher, type KeyMatch, type Matcher } from '../keys/matcher';
import type { Access, FileContext, FileContexts, Finding, KeyUse, SourceLanguage } from '../model';
import { withContexts } from '../file-roles';
import { checkGroup, resolveSupersedes, type KeyGroup } from '../rules';
import { keySite } from '../rules/group';
import { isSuppressed, type Suppressions } from '../rules/suppress';
import { languageForFile } from '../syntax/parser';
import type { TableDefinition } from '../model/call-site';
import type { InfraDeclarations } from '../model/entry-point';
import { CrossModuleFacts, definitionChanges, writesChanged } from './cross-module';
import { InfraRegistry, withOpenBuffers, type InfraRead, type InfraReadEntry } from './infra';
import { isCdkText } from './cdk-source';
import { isServerlessFile } from '../frontends/infra';
import { isKeyShardRoute, shardSuffixOrigins } from '../frontends/tenant-routing';
import { EnvBinder, importedModules, type FileBindings } from './env-binder';
import { KeyGroups } from './key-groups';
import { ModuleConstants, readFromDisk } from './modules';
import {
  analyzeWrapperCallers,
  passesMayAnalyse,
  refreshEarlyWriters,
  refreshWriters,
  type PassTarget,
} from './passes';
import { listKeys, keyPatterns, type TableEntry } from './query';
import { readSource } from './source';
import { sameSpan } from '../syntax/span';
import { WorkspaceReach } from './reach';
import type { AccessReach, EntryPoint, FileReach } from '../model/entry-point';
import { placeByReach, withReach } from '../rules/reach';
import { judgeByUse, judgedByUse, keyUseOf } from '../rules/key-use';
import { VersionedMemo } from './versioned-memo';
import { roleOfAccess } from '../rules/role-scope';
import { atSchemaOnce } from '../rules/schema-default';
import { familyOf, logicalKeyOf, valueFamiliesOf, valuePatternOf } from '../keys/logical-key';
import { sameTable, tableKey } from '../keys/table';
import { DeclaredTables } from './declared-tables';
import { TableFindings } from './table-findings';
import { DefinitionFindings } from './definition-findings';

export type { CallSiteEntry, IndexEntry, KeyEntry, TableEntry } from './query';

export interface IndexOptions extends AnalyzeOptions {
  /** Messages name other files relative to this folder; Python imports resolve up to it. */
  root: string;
  /** A file's current text when it is open in an editor, else null (then it is read from disk). */
  openText?: (file: string) => string | null;
  /** Entry points infrastructure code declares (templates), when a reader of them is installed. */
  infraEntryPoints?: () => readonly EntryPoint[];
}

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
 */
export class WorkspaceIndex {
  private readonly files = new Map<string, FileAnalysis>();
  /** The accesses of every file by key family, and each family's cross-file findings. */
  private readonly groups = new KeyGroups((family, accesses, files) => this.judgeFamily(family, accesses, files));
  /** Bumped on every change: the compiled matcher is kept until the next one. */
  private version = 0;
  private matcherCache: { version: number; matcher: Matcher } | null = null;
  /** How each access is reached from the workspace's entry points (reach.ts). */
  private readonly reach: WorkspaceReach;
  /** Each access with its reach attached, one object per access and version of its reach. */
  private readonly annotatedOf = new WeakMap<Access, { reach: AccessReach | undefined; access: Access }>();

  private readonly modules: ModuleConstants;
  /** The infrastructure files (templates, Serverless services) and what they declare. */
  readonly infra: InfraRegistry;
  /** Which tables environment variables name in each file (env-binder.ts). */
  private readonly env: EnvBinder;
  private readonly facts = new CrossModuleFacts();
  private readonly analyzeOptions: AnalyzeOptions;
  /** What the passes over the whole workspace (passes.ts) see of this index. */
  private readonly passTarget: PassTarget;
  /** The tables infrastructure code declares, and the table rules over the accesses on them. */
  private readonly declared: DeclaredTables;
  private readonly tables: TableFindings;
  /** The table rules' findings on the definitions (SL013), by the file each definition is written in. */
  private readonly definitions: DefinitionFindings;

  constructor(private readonly options: IndexOptions) {
    const openText = options.openText;
    this.infra = new InfraRegistry(options.maxBytes ?? DEFAULT_MAX_BYTES, openText && withOpenBuffers(openText));
    this.env = new EnvBinder(this.infra, {
      analyses: () => this.files,
      importedFile: (file, language, source) => this.modules.importedFile(file, language, source),
      reanalyse: (file) => {
        const language = languageForFile(file);
        const text = this.options.openText?.(file) ?? readFromDisk(file);
        // Only the bindings moved: the reach read from the same text is kept (its hash says so).
        const prior = this.files.get(file)?.reach;
        return language && text !== null ? this.update(file, text, language, false, prior) : new Set<string>();
      },
      namedTables: () => this.declared.namedTables(),
    });
    this.modules = new ModuleConstants(
      options.root,
      (f) => options.openText?.(f) ?? readFromDisk(f),
      (text, language) => this.facts.importsWrapper(text, language),
    );
    this.analyzeOptions = {
      ...options,
      resolveImport: this.modules.resolve,
      resolveModule: this.modules.summary,
      resolveInjected: this.modules.injectedModel,
      resolveConnection: this.modules.namedConnection,
      mayCallWrappers: (text, language) =>
        this.facts.hasWrappers && this.facts.importsWrapperNamed(this.facts.importsOf(text, language)),
      tableDefinitions: () => this.facts.tableDefinitions(),
      envTables: (file) => this.env.of(file),
      declaredTables: (file) => this.env.namedOf(file),
    };
    this.reach = new WorkspaceReach({
      root: options.root,
      analyses: () => this.files.values(),
      analysisOf: (file) => this.files.get(file),
      importsNoted: (file) => this.facts.importsNoted(file),
      text: (f) => options.openText?.(f) ?? readFromDisk(f),
      importFile: (from, module) => {
        const language = languageForFile(from);
        return language ? this.modules.fileOfImport(from, language, module) : null;
      },
      // The triggers templates declare for each function, and any the caller adds.
      infra: {
        version: () => this.infra.version,
        declarations: () => this.infra.declarations(),
        extra: () => options.infraEntryPoints?.() ?? [],
      },
    });
    this.declared = new DeclaredTables({
      version: () => this.infra.version,
      declarations: () => this.infra.declarations(),
    });
    this.tables = new TableFindings(this.declared, {
      version: () => `${this.version}:${this.infra.version}`,
      analyses: () => this.files.values(),
      contextsOf: (files) => this.contextsOf(files),
      where: (at) => this.whereAt(at),
      severity: options.severity ?? {},
      contexts: options.contexts,
    });
    this.definitions = new DefinitionFindings(this.declared, this.tables, {
      version: () => `${this.version}:${this.infra.version}`,
      hotSources: () => this.hotSourceFindings(),
      analysedIgnores: (file) => this.files.get(file)?.ignores,
      text: (file) => this.options.openText?.(file) ?? readFromDisk(file),
    });
    this.passTarget = {
      facts: this.facts,
      analyzeOptions: this.analyzeOptions,
      analysisOf: (file) => this.files.get(file),
      analyses: () => this.files.values(),
      openText: (file) => this.options.openText?.(file),
      set: (analysis) => this.set(analysis),
      update: (file, text, language) => this.update(file, text, language, false),
    };
  }

  /**
   * Notes what a file the pre-scan passed over imports, from its text in hand (the
   * parallel indexer calls this for the files it does not send to be analysed).
   */
  noteImports(analysis: FileAnalysis, text: string, passed?: boolean): void {
    this.facts.noteImports(analysis, text, passed);
  }

  /**
   * Reads infrastructure files (templates, Serverless services; `collectFiles` lists
   * them) from their open buffer or disk. Returns whether what they declare changed.
   * `restored`: an earlier run's reads (the analysis cache's), taken where they still hold.
   */
  readInfrastructure(files: Iterable<string>, restored?: Record<string, InfraReadEntry>): boolean {
    let changed = false;
    for (const f of files) changed = this.infra.read(f, this.options.openText?.(f), restored?.[f]) || changed;
    return changed;
  }

  /**
   * `file` changed on disk, was created or deleted: reads again the infrastructure files
   * whose reading looked at it (an included resources file, a `serverless.ts` function
   * module, a handler, a Terraform module's other file). Whether what they declare changed.
   */
  readDependents(file: string): boolean {
    return this.readInfrastructure(this.infra.dependents(file));
  }

  /**
   * An open source file was edited: reads again the `serverless.ts` or CDK file it is, and
   * the templates, `serverless.ts` and (for a CDK file) the CDK files that read it. Whether
   * what they declare changed.
   */
  readAfterEdit(file: string): boolean {
    // A CDK app's file (a stack, a construct, the app's entry) is read again as its analysis
    // is, after the edit's pause, with the app's files whose reading looked at it.
    const text = this.options.openText?.(file);
    const cdk = !!text && isCdkText(file, text) && this.infra.mayDeclare(file);
    const cheap = (f: string) => cdk || !languageForFile(f) || isServerlessFile(f);
    const own = isServerlessFile(file) || cdk ? [file] : [];
    return this.readInfrastructure([...own, ...this.infra.dependents(file).filter(cheap)]);
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
    return this.env.rebind();
  }

  /** The tables a file's analysis was made with (env-binder.ts `boundOf`), for the analysis cache. */
  bindingsOf(file: string): FileBindings | undefined {
    return this.env.boundOf(file);
  }

  /** A file restored from the analysis cache was analysed with `bindings`. */
  restoreBindings(file: string, bindings: FileBindings): void {
    this.env.restoreBound(file, bindings);
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
    for (const f of files) this.analyzeFile(f, false);
    this.completePasses(files);
  }

  /**
   * Once every file of `files` is in (analysed one by one, in any order): the files that
   * call a wrapper found among them, then the writers of tables defined in files that
   * came after them. Returns the key families touched. `settled`: files restored from a
   * cache made with the same workspace facts, which the passes already went through.
   */
  completePasses(files: Iterable<string>, settled?: ReadonlySet<string>): Set<string> {
    const touched = analyzeWrapperCallers(this.passTarget, files, settled);
    for (const key of refreshEarlyWriters(this.passTarget, settled)) touched.add(key);
    for (const key of this.env.rebind()) touched.add(key);
    // A handler file read only for its entry points (it calls no wrapper) may import the
    // module whose environment-named table its function's environment sets: bound again.
    if (this.readEntryFiles() > 0) for (const key of this.env.rebind()) touched.add(key);
    return touched;
  }

  /**
   * Reads the files the pre-scan passed over that declare entry points into code the
   * index holds (reach.ts): their reach joins their analysis, so the cache keeps it.
   * Returns how many were read.
   */
  readEntryFiles(): number {
    return this.reach.readEntryFiles((analysis) => this.set(analysis));
  }

  /**
   * The files whose accesses are reached otherwise since their findings were last asked
   * for (an edit added a route or removed a call): their findings may read differently.
   */
  filesReachedOtherwise(): string[] {
    return this.reach.filesReachedOtherwise();
  }

  /**
   * Whether a file the pre-scan passed over may declare entry points, when that was looked
   * at (its text read for it): the analysis cache keeps the answer, so a warm run does not
   * read the file again to ask.
   */
  entryMarkOf(file: string): boolean | undefined {
    const analysis = this.files.get(file);
    return analysis && this.reach.markOf(analysis);
  }

  /** A file restored from the analysis cache was looked at for entry points with the same text. */
  restoreEntryMark(file: string, marked: boolean): void {
    const analysis = this.files.get(file);
    if (analysis) this.reach.restoreMark(analysis, marked);
  }

  /** The files the pre-scan passed over that `completePasses` would read for their entry points once `pending` is in. */
  plannedEntryFiles(pending: Iterable<string>): string[] {
    return this.reach.plannedEntryFiles(pending);
  }

  /** The reach of a file the pre-scan passed over, read elsewhere (the CLI's analysis thread). */
  setEntryReach(file: string, reach: FileReach): void {
    const analysis = this.files.get(file);
    if (analysis && !analysis.reach && !analysis.accesses.length) this.set({ ...analysis, reach });
  }

  /** After `file` changed: reads it for its entry points when it declares some into code the index holds. */
  readEntryFile(file: string): boolean {
    const analysis = this.files.get(file);
    return !!analysis && this.reach.readEntryFile(analysis, (a) => this.set(a));
  }

  /**
   * Whether `completePasses` may analyse a file, so that a caller that analysed the
   * workspace elsewhere (the CLI's analysis thread) loads the parsers only then.
   */
  passesMayAnalyse(files: Iterable<string>, settled?: ReadonlySet<string>): boolean {
    // A handler's imports may bind more files once every file is in: only a file whose bindings moved is analysed.
    return (
      passesMayAnalyse(this.passTarget, files, settled) ||
      this.env.wouldReanalyse() ||
      this.reach.entryFilesToRead().length > 0
    );
  }

  /** The cross-file state the analysis cache (cache/) saves and restores. */
  get crossFile(): { modules: ModuleConstants; pass: PassTarget } {
    return { modules: this.modules, pass: this.passTarget };
  }

  /** The options to analyse a file of this workspace with (imports resolve across files). */
  get fileOptions(): AnalyzeOptions {
    return this.analyzeOptions;
  }

  /**
   * Reads and analyses one file from disk (or its open buffer); returns the keys it
   * touches. A first pass over the workspace passes `refresh = false`: modules are
   * read when first imported, so there is nothing stale to refresh yet.
   */
  analyzeFile(file: string, refresh = true): Set<string> {
    const language = languageForFile(file);
    if (!language) return new Set();
    const open = this.options.openText?.(file);
    const source = open != null ? { text: open } : readSource(file, this.options.maxBytes ?? DEFAULT_MAX_BYTES);
    if ('skipped' in source) return this.set(emptyAnalysis(file, language, source.skipped));
    return this.update(file, source.text, language, refresh);
  }

  /**
   * Analyses one file's text; with `refresh`, files that import constants from it
   * are analysed again. Returns the key families touched. `priorReach`: the file's reach
   * as last read, kept if the text is the same.
   */
  update(file: string, text: string, language: SourceLanguage, refresh = true, priorReach?: FileReach): Set<string> {
    const before = JSON.stringify(this.files.get(file)?.definitions ?? []);
    const options = priorReach ? { ...this.analyzeOptions, priorReach } : this.analyzeOptions;
    const analysis = analyzeSource(file, text, language, options);
    this.noteImports(analysis, text);
    const touched = this.set(analysis);
    // A first pass reads entry-point files once every file is in (completePasses).
    if (refresh) this.readEntryFile(file);
    if (!refresh) return touched;
    for (const key of this.refreshDependents(file)) touched.add(key);
    const after = this.files.get(file)?.definitions ?? [];
    if (JSON.stringify(after) !== before) {
      // Only the writers the change can reach: a table's writers, or those that set a changed index's key.
      const changes = definitionChanges(JSON.parse(before) as TableDefinition[], after);
      const stale = (accesses: readonly Access[]) => writesChanged(accesses, changes);
      for (const key of refreshWriters(this.passTarget, stale, file)) touched.add(key);
    }
    return touched;
  }

  /**
   * A module changed: forget its constants and re-analyse the files that used them, also
   * through the modules between (a repository reads an ElectroDB entity through the
   * service module that lists it: `DBService.entities.delegate`). Each module between
   * kept what it read of the changed one, so it is forgotten too.
   */
  refreshDependents(file: string): Set<string> {
    const stale = new Set<string>([file]);
    for (const queue = [file]; queue.length > 0;) {
      const module = queue.pop()!;
      this.modules.forget(module);
      for (const d of this.modules.dependentsOf(module))
        if (!stale.has(d)) {
          stale.add(d);
          queue.push(d);
        }
    }
    const touched = new Set<string>();
    for (const dependent of stale) {
      if (dependent === file || !this.files.has(dependent)) continue;
      const language = languageForFile(dependent);
      const text = this.options.openText?.(dependent) ?? readFromDisk(dependent);
      if (!language || text === null) continue;
      for (const key of this.set(analyzeSource(dependent, text, language, this.analyzeOptions))) touched.add(key);
      this.reread.add(dependent);
    }
    return touched;
  }

  /**
   * The files `refreshDependents` analysed again since last asked. Their findings may have
   * changed although no key family now holds them: a TypeDORM connection that listed an
   * entity with a constant key has no access left once the key is edited back, and
   * `filesOf` the keys touched no longer names it.
   */
  takeReread(): string[] {
    const files = [...this.reread];
    this.reread.clear();
    return files;
  }
  private readonly reread = new Set<string>();

  /**
   * Stores an analysis made elsewhere (the editor's open document), marks the key
   * families whose accesses in this file changed for re-checking, and returns those
   * whose change other files can see (an access added, removed or different in any
   * way, positions included). An edit that leaves every access of a family as it was
   * touches nothing: typing inside one function does not republish the workspace.
   */
  set(analysis: FileAnalysis): Set<string> {
    const file = analysis.file;
    if (!sameModules(this.files.get(file), analysis)) this.env.importsChanged();
    this.files.set(file, analysis);
    this.reach.noted(analysis);
    const wrappers = this.facts.wrapperCount;
    this.facts.note(analysis);
    if (this.facts.wrapperCount !== wrappers) this.modules.wrappersChanged();
    const touched = this.groups.place(file, analysis.accesses);
    this.version++;
    return touched;
  }

  /** A package.json or workspace list changed: what imports of the monorepo's packages name is read again. */
  manifestsChanged(): void {
    this.modules.manifestsChanged();
  }

  remove(file: string): Set<string> {
    this.env.forget(file);
    this.modules.forget(file);
    this.reach.forget(file);
    this.facts.forget(file);
    this.files.delete(file);
    const before = this.groups.remove(file);
    this.version++;
    return before;
  }

  /** The cross-file rules over one key family's accesses (key-groups.ts calls this for a changed family). */
  private judgeFamily(family: string, accesses: Access[], files: ReadonlySet<string> | undefined): Finding[] {
    const group: KeyGroup = { key: family, accesses, where: (a) => this.where(a), files: this.contextsOf(files) };
    return checkGroup(group, this.options.severity ?? {}, this.options.contexts);
  }

  /**
   * The contexts the analyses of `files` worked out (their own and those their keys came
   * through), each file's own first; a file whose analysis has none is read here.
   */
  private contextsOf(files: Iterable<string> | undefined): FileContexts {
    const own: Record<string, FileContext> = {};
    const told: Record<string, FileContext> = {};
    const list = [...(files ?? [])];
    for (const f of list) {
      const contexts = this.files.get(f)?.contexts;
      if (!contexts) continue;
      if (contexts[f]) own[f] = contexts[f];
      for (const [g, c] of Object.entries(contexts)) told[g] ??= c;
    }
    return withContexts({ ...told, ...own }, list);
  }

  private where(a: Access): string {
    const rel = path.relative(this.options.root, a.file).split(path.sep).join('/');
    return `${rel}:${keySite(a).span.startLine + 1}`;
  }

  /**
   * One file's findings: its own and the cross-file ones placed in it, and those on the
   * table definitions it holds (SL013, made from every file's), sorted by position.
   */
  findingsFor(file: string, used?: Set<string>): Finding[] {
    const onDefinitions = this.definitions.in(file, used);
    if (!this.files.has(file)) return onDefinitions;
    const code = this.codeFindings(file, used);
    return onDefinitions.length ? [...code, ...onDefinitions].sort(byPosition) : code;
  }

  /** The files holding table definitions, where findings on them (SL013) may sit. */
  definitionFiles(): string[] {
    return [...this.definitions.files()].sort();
  }

  /** The `shardlens-ignore` lines of a file holding table definitions (a template's from its comments). */
  definitionIgnores(file: string): Array<[number, string[]]> {
    return this.definitions.ignoresOf(file);
  }

  /** A source file's findings: its own and the cross-file ones placed in it, sorted by position. */
  private codeFindings(file: string, used?: Set<string>): Finding[] {
    // Every finding, own or cross-file or a table's, sits on an access of its file: most files have none.
    const analysis = this.files.get(file);
    if (!analysis?.accesses.length && !analysis?.findings.length) return [];
    const cross = [...this.groups.findingsIn(file), ...this.tables.in(file)];
    const ignores: Suppressions = new Map((this.files.get(file)?.ignores ?? []).map(([l, c]) => [l, new Set(c)]));
    const own = this.withoutKeyShardRoutes(this.files.get(file)?.findings ?? []).flatMap(
      (f) => atSchemaOnce(this.withKeyUse(this.groups.withWorkspaceShardCount(f)), () => this.accessesOfKey(f)) ?? [],
    );
    // A silenced SL006 still means the read's SL001 does not apply: resolve before silencing.
    const kept = resolveSupersedes([...own, ...cross]).filter((f) => !isSuppressed(f, ignores, used));
    const placed = kept.map((f) =>
      placeByReach({ ...f, access: this.annotated(f.access) }, this.reachOfAccess(f.access), (at) => this.whereAt(at)),
    );
    return dedupe(placed).sort(byPosition);
  }

  /**
   * A file's findings less the tenant routes (SL021) whose remainder is the shard suffix of
   * a key written in another file (a helper's `fnv1a(orgId) % N` a repository's key is
   * built with): the file's own keys were read when it was analysed. Routes are rare, so
   * the workspace's keys are read only for a file that has one.
   */
  private withoutKeyShardRoutes(findings: Finding[]): Finding[] {
    if (!findings.some((f) => f.access.library?.route)) return findings;
    const suffixes = shardSuffixOrigins([...this.files.values()].flatMap((r) => r.accesses));
    return findings.filter((f) => !isKeyShardRoute(f.access, suffixes));
  }

  /**
   * A hot-key finding judged by how the workspace uses its key (read-hot, write-hot or
   * both, `rules/key-use.ts`): every access of the key on a table it may share, with the
   * role of its code and how entry points reach it.
   */
  private withKeyUse(f: Finding): Finding {
    if (!judgedByUse(f)) return f;
    const key = logicalKeyOf(f.access);
    if (!key) return f;
    const { index, table } = f.access;
    const valuesToo = f.rule === 'SL003';
    const id = [familyOf(key), valuesToo ? valuePatternOf(key) : '', index ?? '\u0001', tableKey(table)].join('\u0000');
    return judgeByUse(
      f,
      this.keyUses.get(`${this.version}:${this.infra.version}`, id, () => {
        // A key of a few values also takes them as literals elsewhere (a create writing `status: 'open'`).
        const families = [familyOf(key), ...(valuesToo ? valueFamiliesOf(key, this.groups.families()) : [])];
        const groups = families.map((family) => this.groups.accessesOf(family));
        const accesses = groups.flatMap((g) => g.accesses);
        const contexts = this.contextsOf(groups.flatMap((g) => [...g.files]));
        const uses = accesses
          .filter((a) => a.index === index && sameTable(a.table, table))
          .map((a) => ({ access: a, role: roleOfAccess(a, contexts), reach: this.reachOfAccess(a) }));
        return keyUseOf(uses);
      }),
    );
  }
  /**
   * How the workspace uses each key, per version of the index: every finding of a key asked
   * for it again (91 findings of the bench's 3,000-line file, ~20 ms of each re-publish).
   */
  private readonly keyUses = new VersionedMemo<KeyUse>();

  /** Every access of a finding's key family across the workspace. */
  private accessesOfKey(f: Finding): Access[] {
    const key = logicalKeyOf(f.access);
    return key ? this.groups.accessesOf(familyOf(key)).accesses : [];
  }

  /** How an access of this index is reached from the workspace's entry points (reach.ts). */
  private reachOfAccess(a: Access): AccessReach | undefined {
    const analysis = this.files.get(a.file);
    return analysis ? this.reach.ofFile(analysis).get(a) : undefined;
  }

  /** How an access is reached (its entry points), when the reachability pass could tell. */
  entryReachOf(a: Access): AccessReach | undefined {
    if (a.reach) return a.reach;
    const analysis = this.files.get(a.file);
    if (!analysis) return undefined;
    const reach = this.reach.ofFile(analysis);
    const own = reach.get(a);
    if (own) return own;
    // The same call as another analysis of the file read it (an open document): matched by position.
    for (const [b, r] of reach) if (sameSpan(b.span, a.span) && b.operation === a.operation) return r;
    return undefined;
  }

  /** The access with its reach attached, one object per access and reach (a finding's access is one of its file's). */
  private annotated(a: Access): Access {
    const reach = this.reachOfAccess(a);
    const known = this.annotatedOf.get(a);
    if (known && known.reach === reach) return known.access;
    const access = withReach(a, reach);
    this.annotatedOf.set(a, { reach, access });
    return access;
  }

  private whereAt(at: { file: string; span: { startLine: number } }): string {
    const rel = path.relative(this.options.root, at.file).split(path.sep).join('/');
    return `${rel}:${at.span.startLine + 1}`;
  }

  /** `line:rule` of each finding in `file` a `shardlens-ignore` comment silenced, its own and cross-file. */
  silencedIn(file: string): Set<string> {
    const used = new Set<string>(this.files.get(file)?.silenced ?? []);
    this.findingsFor(file, used);
    return used;
  }

  /**
   * Every file's analysis with cross-file findings merged in, in path order, and an entry
   * (`infrastructure: true`) for each infrastructure file that holds findings on the
   * tables it declares; a CDK stack file analysed as code gets them in its own entry.
   */
  results(): FileAnalysis[] {
    const out = [...this.files.keys()].sort().map((file) => {
      const analysis = this.files.get(file)!;
      const findings = this.codeFindings(file);
      return { ...analysis, accesses: analysis.accesses.map((a) => this.annotated(a)), findings };
    });
    const onDefinitions = this.definitions.from(out.flatMap((r) => r.findings));
    if (onDefinitions.size === 0) return out;
    for (const [file, findings] of onDefinitions) {
      const own = out.find((r) => r.file === file);
      if (own) own.findings = [...own.findings, ...findings].sort(byPosition);
      else {
        // Its comments, so that `--report-unused-ignores` reads a template's as a source file's.
        const ignores = this.definitions.ignoresOf(file);
        const entry = emptyAnalysis(file, findings[0].access.language, null);
        out.push({ ...entry, findings, infrastructure: true, ...(ignores.length ? { ignores } : {}) });
      }
    }
    return out.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  }

  /**
   * The findings of the files with an access on a declared table: the hot-key findings
   * on definitions are made from (an edit elsewhere leaves them as they were).
   */
  private hotSourceFindings(): Finding[] {
    const out: Finding[] = [];
    for (const [file, analysis] of this.files)
      if (analysis.accesses.some((a) => this.declared.of(a))) out.push(...this.codeFindings(file));
    return out;
  }

  /** The workspace's tables → indexes → logical keys → call sites, as plain data (see `query.ts`). */
  keys(): TableEntry[] {
    return listKeys(this.results());
  }

  /** The logical key(s) a concrete key belongs to, and its shard; [] when no template matches. */
  match(concrete: string): KeyMatch[] {
    if (this.matcherCache?.version !== this.version) {
      this.matcherCache = { version: this.version, matcher: compileMatcher(keyPatterns(this.files.values())) };
    }
    return this.matcherCache.matcher(concrete);
  }

  /** The files holding accesses of these key families: whose findings a change may alter. */
  filesOf(keys: Iterable<string>): Set<string> {
    return this.groups.filesOf(keys);
  }

  /**
   * The files whose findings a change to `changed` may alter: those files, the modules that
   * import them (one level, as `refreshDependents`), and every file sharing a key family
   * with any of these (the other side of a cross-file rule).
   */
  reachOf(changed: Iterable<string>): Set<string> {
    const near = new Set<string>();
    for (const f of changed) {
      if (!this.files.has(f)) continue;
      near.add(f);
      for (const d of this.modules.dependentsOf(f)) if (this.files.has(d)) near.add(d);
    }
    const out = new Set(near);
    for (const f of near) for (const g of this.filesOf(this.groups.familiesIn(f))) out.add(g);
    return out;
  }

  /** Every file analysed, with its analysis (own findings only). */
  analyses(): IterableIterator<FileAnalysis> {
    return this.files.values();
  }

  has(file: string): boolean {
    return this.files.has(file);
  }

  /** The file's analysis as the index keeps it (with what other files told it), if it has one. */
  analysisOf(file: string): FileAnalysis | undefined {
    return this.files.get(file);
  }

  get size(): number {
    return this.files.size;
  }
}

/** Whether two analyses' imports name the same modules, in order (a missing list names none). */
function sameModules(a: FileAnalysis | undefined, b: FileAnalysis): boolean {
  const x = a ? importedModules(a) : [];
  const y = importedModules(b);
  return x.length === y.length && x.every((m, k) => m === y[k]);
}

function byPosition(a: Finding, b: Finding): number {
  return a.span.startLine - b.span.startLine || a.span.startColumn - b.span.startColumn || a.rule.localeCompare(b.rule);
}

/** A read that belongs to two logical keys (`K#3` is `K#3` and `K`) is reported once. */
function dedupe(fs: Finding[]): Finding[] {
  const seen = new Set<string>();
  return fs.filter((f) => {
    const id = `${f.rule}:${f.span.startLine}:${f.span.startColumn}:${f.message}`;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

/**
 * What the workspace's infrastructure code declares: per template or Serverless service,
 * its functions (handler source file, triggers as entry points, environment) and tables.
 * The reachability pass reads the triggers from here.
 */
export function infrastructureOf(index: WorkspaceIndex): InfraDeclarations[] {
  return index.infrastructure();
}
