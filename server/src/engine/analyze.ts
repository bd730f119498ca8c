import type { Tree } from 'web-tree-sitter';
import { markCachedReads } from './frontends/cached-reads';
import { withoutKeyShardRoutes } from './frontends/tenant-routing';
import type { CallSite } from './model/call-site';
import { accessesOfCallSiteMemo, learnKeySchemasMemo } from './requests/interpret-memo';
import { hintTableOf } from './requests/interpret';
import { declaredDefinitions, withDeclared, type NamedTable } from './requests/declared-names';
import { importsOf } from './frontends/imports';
import type { Access, FileContexts, FileRole, Finding, ImportInfo, SourceLanguage, TableGiven } from './model';
import { parse, ParseTimeout } from './syntax/parser';
import { mayContainDynamoDbCalls, reasonToSkip } from './syntax/prescan';
import { frontEndFor } from './frontends/registry';
import type { SourceFile } from './model/frontend';
import { checkAccesses, type SeverityOverrides } from './rules';
import type { Lookups } from './model/eval-context';
import { functionOf } from './frontends/wrappers/resolve';
import { wrapperCalls } from './frontends/wrappers/callers';
import { outsideWrapperCalls } from './frontends/wrappers/outside';
import { hasParamHole } from './frontends/wrappers/instantiate';
import { keysTold, withDefinitions } from './requests/schemas';
import type { TableDefinition } from './model/call-site';
import { envDefinitions, withEnvTables } from './requests/env-tables';
import { tablesGivenBy } from './requests/tables-given';
import { judgedAtCaller } from './requests/judged-at-caller';
import { withEnvKeyValues } from './requests/env-key-values';
import type { FileEnv, FileReach } from './model/entry-point';
import { readFileReach } from './entry-points/file';
import type { ModuleSummary } from './model/summary';
import type { SiteCache } from './incremental/site-cache';
import type { ReachCache } from './incremental/reach-cache';
import type { Value } from './model/value';
import { type ContentRole, contentRole } from './file-roles/role';
import { contextsFor } from './file-roles';
import { declaresLibraryModels } from './model/libraries';
import { suppressions, isSuppressed, type Suppressions } from './rules/suppress';
import { recordingReaders, type ModuleRead } from './module-reads';

export interface AnalyzeOptions {
  /** Parse time budget per file. */
  budgetMs?: number;
  /**
   * The reach an earlier analysis of the file read: kept when the text is the same (its
   * `textHash`), as when the writers are analysed again for a table definition found later.
   */
  priorReach?: FileReach;
  /** Files larger than this (in characters) are skipped. */
  maxBytes?: number;
  severity?: SeverityOverrides;
  /** Call sites kept from the previous version of an edited document. */
  siteCache?: SiteCache;
  /** An edited document's reach, read again only where its edits were (`priorReach` is then not looked at). */
  reachCache?: ReachCache;
  /** Looks up constants imported from other files of the workspace. */
  resolveImport?: ImportResolver;
  /** Summarises a module another file imports (its wrappers and returns); absent: nothing across files. */
  resolveModule?: ModuleResolver;
  /** The model a framework injects into `file`'s classes under a name (`@InjectModel('User')`); absent: none. */
  resolveInjected?: (file: string, token: string) => Value | null;
  /** The connection a library keeps by name, made anywhere in the workspace (`Lookups.connection`); absent: none. */
  resolveConnection?: (file: string, name: string) => Value | null;
  /**
   * Record what the four resolvers above answer (FileAnalysis `reads`). Not with a
   * `siteCache`: sites kept from an earlier analysis do not ask again.
   */
  recordReads?: boolean;
  /** Contexts (app, test, example, script) whose findings are reported; default all. */
  contexts?: readonly FileRole[];
  /**
   * False: the rules are left to the caller (`judgeAnalysis`), which has the text too.
   * The CLI's analysis thread leaves them to the thread that reads, which waits for it.
   */
  judge?: boolean;
  /** The text's content role, when the caller keeps it across edits (`RoleWatch`); else read from the text. */
  contentRole?: ContentRole;
  /**
   * Whether a file the pre-scan finds no DynamoDB call in may still call a wrapper
   * module of the workspace (it imports one), and so must be parsed.
   */
  mayCallWrappers?: (text: string, language: SourceLanguage) => boolean;
  /** Tables defined elsewhere in the workspace (`create_table`, the CDK): their indexes' key names. */
  tableDefinitions?: () => readonly TableDefinition[];
  /**
   * The tables environment variables name in this file, as the infrastructure code that
   * runs it sets them (`env-tables.ts`); null or absent: the variables stay variables.
   */
  envTables?: (file: string) => FileEnv | null;
  /**
   * The tables infrastructure code declares with a name (`declared-names.ts`): a call that
   * writes one of the names literally takes that table's key schema and indexes.
   */
  declaredTables?: (file: string) => readonly NamedTable[];
}

/** Whether a file's text is worth parsing: it may call DynamoDB directly or through a wrapper. */
export function worthParsing(text: string, language: SourceLanguage, options: AnalyzeOptions): boolean {
  return mayContainDynamoDbCalls(text) || options.mayCallWrappers?.(text, language) === true;
}

/** The value of `name` exported by module `source`, imported from `fromFile`. */
export type ImportResolver = (fromFile: string, language: SourceLanguage, source: string, name: string) => Value | null;

/** The summary of module `source` as `fromFile` imports it, or null (a package, a missing file). */
export type ModuleResolver = (
  fromFile: string,
  language: SourceLanguage,
  source: string,
  /** Only a module with DynamoDB calls (its wrappers): others are not parsed for this. */
  sites?: boolean,
) => ModuleSummary | null;

export interface FileAnalysis {
  file: string;
  language: SourceLanguage;
  accesses: Access[];
  findings: Finding[];
  /** Why the file was not analysed, when it was not. */
  skipped: string | null;
  /** The file has syntax errors; what parsed was still analysed. */
  syntaxErrors: boolean;
  /**
   * Parts of the analysis that failed on this file (an engine bug): what the other parts
   * found is still reported, and `check --stats` names the file and the part.
   */
  failures?: AnalysisFailure[];
  /** `shardlens-ignore` comments: line → rule codes (none: every rule), for cross-file findings too. */
  ignores?: Array<[number, string[]]>;
  /** `line:rule` of each finding a `shardlens-ignore` comment silenced (for unused-comment reports). */
  silenced?: string[];
  /** The file's imports (for code generated into it); empty when it was not parsed. */
  imports: ImportInfo[];
  /** Some DynamoDB call in the file takes its key from a function's parameter: other files may call it. */
  wraps?: boolean;
  /**
   * What the file tells of tables' keys for the rest of the workspace: the tables it
   * defines (`create_table`, the CDK) and the index keys its queries through an index use.
   */
  definitions?: TableDefinition[];
  /**
   * Where the code of the files its accesses involve runs, and their projects
   * (`contextsFor`): worked out with the rules, read by them and by the cross-file rules.
   */
  contexts?: FileContexts;
  /**
   * What the file tells the reachability pass (`entry-points/`): its functions and the
   * calls in them, its imports and the entry points written in it, read from the same
   * tree; absent for a file that was not parsed.
   */
  reach?: FileReach;
  /**
   * An infrastructure file's entry in a workspace's results: no code analysed, only the
   * findings on the tables it declares (SL013). `language` is then that of the code whose
   * findings made them.
   */
  infrastructure?: true;
  /**
   * Every read of another module the extraction made and a hash of its answer
   * (module-reads.ts), when `recordReads` asked for them: the analysis cache keeps the
   * analysis when a module it read changed but each read answers the same.
   */
  reads?: ModuleRead[];
  /** The tables this file's constructions give the wrappers it calls (`TableGiven`). */
  tablesGiven?: TableGiven[];
}

export const DEFAULT_MAX_BYTES = 2 * 1024 * 1024;
export const DEFAULT_BUDGET_MS = 3000;

/** A part of a file's analysis that threw: `stage` says which, `message` what it threw. */
export interface AnalysisFailure {
  stage: string;
  message: string;
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** The analysis of a file with nothing to report: not parsed (`skipped` says why) or without calls. */
export function emptyAnalysis(file: string, language: SourceLanguage, skipped: string | null): FileAnalysis {
  return { file, language, accesses: [], findings: [], skipped, syntaxErrors: false, imports: [] };
}

/**
 * The engine's one entry for a file: pre-scan, parse, extract, model, rules.
 * Never throws: what cannot be analysed comes back with a reason in `skipped`.
 * `initParsers()` must have finished first.
 */
export function analyzeSource(
  file: string,
  text: string,
  language: SourceLanguage,
  options: AnalyzeOptions = {},
): FileAnalysis {
  const skip = reasonToSkip(text, options.maxBytes ?? DEFAULT_MAX_BYTES);
  if (skip) return emptyAnalysis(file, language, skip);
  if (!worthParsing(text, language, options)) return emptyAnalysis(file, language, null);
  let tree: Tree;
  try {
    tree = parse(language, text, options.budgetMs ?? DEFAULT_BUDGET_MS);
  } catch (e) {
    return emptyAnalysis(file, language, e instanceof ParseTimeout ? e.message : `parser failed: ${String(e)}`);
  }
  try {
    return analyzeTree(tree, file, language, text, options);
  } finally {
    tree.delete();
  }
}

/**
 * The single-file rules over an analysis's accesses, less what `shardlens-ignore`
 * comments silence: the findings an analysis made with `judge: false` leaves out.
 */
export function judgeAnalysis(
  analysis: FileAnalysis,
  text: string,
  options: Pick<AnalyzeOptions, 'severity' | 'contexts' | 'contentRole'> = {},
): FileAnalysis {
  if (analysis.accesses.length === 0) return analysis;
  const ignored: Suppressions = new Map((analysis.ignores ?? []).map(([line, codes]) => [line, new Set(codes)]));
  // The one place the files' roles and projects are read (from the text, and the disk): the rules only look them up.
  // Read with the analysed language's patterns, as an open document's `RoleWatch` reads them,
  // not the file name's: a Python text held under a name with no extension is Python still.
  const byContent =
    options.contentRole !== undefined
      ? options.contentRole
      : contentRole(text, frontEndFor(analysis.language).contentRoles);
  const files = contextsFor(analysis.file, analysis.accesses, text, byContent);
  const used = new Set<string>();
  const findings = checkAccesses(analysis.accesses, options.severity, { contexts: options.contexts, files }).filter(
    (f) => !isSuppressed(f, ignored, used),
  );
  return { ...analysis, findings, contexts: files, ...(used.size ? { silenced: [...used] } : {}) };
}

/** Extraction and rules over an already parsed tree (the language server keeps trees). */
export function analyzeTree(
  tree: Tree,
  file: string,
  language: SourceLanguage,
  text: string,
  options: AnalyzeOptions = {},
): FileAnalysis {
  const extracted = extractTree(tree, file, language, text, options);
  return extracted.skipped ? extracted : completeAnalysis(extracted, tree, text, options);
}

/** Each part that may fail on its own does so without losing what the others found: its failure is noted. */
function attempting(failures: AnalysisFailure[]) {
  return <T>(stage: string, fallback: T, run: () => T): T => {
    try {
      return run();
    } catch (e) {
      failures.push({ stage, message: messageOf(e) });
      return fallback;
    }
  };
}

/**
 * The first stage of `analyzeTree`: the file's calls and their accesses, without its
 * reach or findings. A hover on an open document needs no more (`AnalyzedDocument.extract`).
 */
export function extractTree(
  tree: Tree,
  file: string,
  language: SourceLanguage,
  text: string,
  options: AnalyzeOptions = {},
): FileAnalysis {
  const failures: AnalysisFailure[] = [];
  const attempt = attempting(failures);
  return orEmpty(file, language, () => {
    const recorder = options.recordReads && !options.siteCache ? recordingReaders(options) : null;
    const readers = recorder?.readers ?? options;
    const lookups = lookupsFor(file, language, readers);
    const source: SourceFile = { file, text, tree, language, lookups };
    const fe = frontEndFor(language);
    const sites = findCallSites(tree, text, file, language, options.siteCache, lookups);
    const resolveModule = readers.resolveModule;
    if (resolveModule)
      sites.push(...attempt("calls to other modules' wrappers", [], () => wrapperCalls(source, fe, resolveModule)));
    const own = sites.map((s) => s.span);
    sites.push(...attempt('calls to libraries outside the workspace', [], () => outsideWrapperCalls(source, fe, own)));
    // A call through another module's wrapper that still depends on a parameter makes this module one too.
    // A module declaring a library's models (`new Entity(...)`, a PynamoDB `class Thread(Model)`) is
    // wrapped like a wrapper: its importers call the library through it, often naming no DynamoDB
    // package themselves.
    const wraps =
      sites.some((s) => hasParamHole(s.input)) || declaresLibraryModels(text) || !!fe.declaresModels?.(source);
    const definitions = attempt('table definitions', [], () => fe.tableDefinitions(source));
    const elsewhere = options.tableDefinitions?.() ?? [];
    const env = options.envTables?.(file) ?? null;
    const declared = declaredDefinitions(literalTables(sites), options.declaredTables?.(file) ?? []);
    // A table declared by name, or named by a variable the infrastructure sets, is keyed as its
    // definition says, whatever a call names (SL011 says so): a `Key` listing the sort key first
    // does not make it the partition key.
    // An environment variable names the table of this file's function only: what calls in
    // other files on a variable of the same name (`TABLE_NAME`, another service's table) tell
    // of its indexes is not this table's, when the infrastructure says which table it is.
    const ownHints = withDefinitions(learnKeySchemasMemo(sites), definitions);
    const hints = withDeclared(
      withDeclared(withDefinitions(ownHints, elsewhere), declared),
      envDefinitions(env),
      ownHints,
    );
    // A call through a wrapper may still make this file a wrapper (above) without being judged here.
    // Its copy still tells the wrapper the table this file's construction of its class gives
    // (and a copy followed for that alone, `tableOnly`, says nothing else).
    const givers: Access[] = [];
    const interpreted = sites.flatMap((s) =>
      attempt(`the call at line ${s.span.startLine + 1}`, [], () => {
        const all = accessesOfCallSiteMemo(s, hints);
        if (!s.through) return all;
        if (s.injected?.length) givers.push(...all);
        return s.tableOnly ? [] : all.filter((a) => judgedAtCaller(a, s));
      }),
    );
    // A remainder that is a key's shard suffix is no tenant's route (SL021): left out with the keys at hand.
    const accesses = withoutKeyShardRoutes(
      markCachedReads(tree, text, withEnvKeyValues(withEnvTables(interpreted, env), env)),
    );
    const tablesGiven = givers.length ? tablesGivenBy(withEnvTables(givers, env)) : [];
    const told = [...definitions, ...keysTold(accesses)];
    const reads = recorder?.reads();
    const ignored = suppressions(tree, text);
    const extracted: FileAnalysis = {
      file,
      language,
      accesses,
      findings: [],
      skipped: null,
      syntaxErrors: tree.rootNode.hasError,
      ignores: [...ignored].map(([line, codes]) => [line, [...codes]]),
      imports: (
        options.siteCache?.importsOf(() => importsOf(tree, frontEndFor(language))) ??
        importsOf(tree, frontEndFor(language))
      ).imports,
      ...(wraps ? { wraps } : {}),
      ...(told.length ? { definitions: told } : {}),
      ...(failures.length ? { failures } : {}),
      ...(reads?.length ? { reads } : {}),
      ...(tablesGiven.length ? { tablesGiven } : {}),
    };
    return extracted;
  });
}

/** A stage's analysis, or, when a bug in a front-end throws, the file's empty analysis saying why: the run goes on. */
function orEmpty(file: string, language: SourceLanguage, stage: () => FileAnalysis): FileAnalysis {
  try {
    return stage();
  } catch (e) {
    return emptyAnalysis(file, language, `analysis failed: ${messageOf(e)}`);
  }
}

/** The second stage of `analyzeTree`: the file's reach, read from the same tree, and (unless `judge` is false) its findings. */
export function completeAnalysis(
  extracted: FileAnalysis,
  tree: Tree,
  text: string,
  options: AnalyzeOptions = {},
): FileAnalysis {
  const { file, language } = extracted;
  const failures = [...(extracted.failures ?? [])];
  return orEmpty(file, language, () => {
    const reach = attempting(failures)('entry points', undefined, () =>
      options.reachCache
        ? options.reachCache.read(tree, file, language, text, options.contentRole)
        : readFileReach(tree, file, language, text, options.priorReach),
    );
    const read: FileAnalysis = {
      ...extracted,
      ...(failures.length ? { failures } : {}),
      ...(reach ? { reach } : {}),
    };
    return options.judge === false ? read : judgeAnalysis(read, text, options);
  });
}

export function findCallSites(
  tree: Tree,
  text: string,
  file: string,
  language: SourceLanguage,
  cache?: SiteCache,
  lookups: Lookups = {},
): CallSite[] {
  return frontEndFor(language).callSites({ file, text, tree, language, lookups, cache });
}

/** What evaluating `file` can look up in the rest of the workspace: constants and functions of its imports. */
function lookupsFor(file: string, language: SourceLanguage, options: AnalyzeOptions): Lookups {
  const { resolveImport, resolveModule, resolveInjected, resolveConnection } = options;
  return {
    imports: resolveImport ? (source, name) => resolveImport(file, language, source, name) : undefined,
    injectedModel: resolveInjected ? (token) => resolveInjected(file, token) : undefined,
    connection: resolveConnection ? (name) => resolveConnection(file, name) : undefined,
    functions: resolveModule
      ? (source, name) => functionOf(resolveModule(file, language, source, false), name)
      : undefined,
  };
}

/** The table names a file's single-table calls write literally. */
function literalTables(sites: readonly CallSite[]): string[] {
  const out: string[] = [];
  for (const s of sites) {
    const key = hintTableOf(s);
    if (key?.startsWith('literal:')) out.push(key.slice('literal:'.length));
  }
  return out;
}
