import { analyzeSource, type AnalyzeOptions, type FileAnalysis } from '../analyze';
import type { Access, SourceLanguage } from '../model';
import type { TableDefinition } from '../model/call-site';
import { languageForFile } from '../syntax/parser';
import { mayContainDynamoDbCalls } from '../syntax/prescan';
import { headImports, IMPORTS_HEAD } from '../frontends/wrappers/gate';
import { frontEndFor } from '../frontends/registry';
import {
  indexKeysByTable,
  partitionKeysByTable,
  writesOtherKey,
  writesStale,
  type CrossModuleFacts,
} from './cross-module';
import { readFromDisk } from './modules';
import { readHead } from './source';

/**
 * The passes over a workspace that need every file in first: the files the pre-scan
 * passed over that call a wrapper module found among the others, and the writers of
 * tables whose definition came in after them. They run once a whole workspace is read
 * (`WorkspaceIndex.completePasses`), and the second also when a definition changes.
 */

/** Rounds of the wrapper-caller pass: each may find callers of the wrappers the last one found. */
const WRAPPER_ROUNDS = 3;

/** What the passes read and change of a workspace index. */
export interface PassTarget {
  readonly facts: CrossModuleFacts;
  readonly analyzeOptions: AnalyzeOptions;
  analysisOf(file: string): FileAnalysis | undefined;
  analyses(): Iterable<FileAnalysis>;
  /** A file's current text when it is open in an editor, else null. */
  openText(file: string): string | null | undefined;
  /** Stores an analysis; the key families it touched. */
  set(analysis: FileAnalysis): Set<string>;
  /** Analyses a file's text and stores it, without refreshing other files; the key families touched. */
  update(file: string, text: string, language: SourceLanguage): Set<string>;
}

/**
 * Files with a write `stale` picks are analysed again: a table definition elsewhere may
 * name an index whose key attribute their writes set. Returns the key families touched.
 */
export function refreshWriters(
  t: PassTarget,
  stale: (accesses: readonly Access[]) => boolean,
  except = '',
  settled?: ReadonlySet<string>,
): Set<string> {
  const touched = new Set<string>();
  for (const analysis of [...t.analyses()]) {
    const file = analysis.file;
    if (file === except || settled?.has(file) || !stale(analysis.accesses)) continue;
    const language = languageForFile(file);
    const text = language ? (t.openText(file) ?? readFromDisk(file)) : null;
    if (text === null || !language) continue;
    const options = analysis.reach ? { ...t.analyzeOptions, priorReach: analysis.reach } : t.analyzeOptions;
    for (const key of t.set(analyzeSource(file, text, language, options))) touched.add(key);
  }
  return touched;
}

/**
 * The writers analysed before a table's definition arrived (or without it, in the CLI's
 * analysis thread): writes that set an index's key attribute without an access to that
 * index yet, and writes whose partition key is not the one the definition names.
 */
export function refreshEarlyWriters(t: PassTarget, settled?: ReadonlySet<string>): Set<string> {
  const stale = earlyWriters(t);
  return stale ? refreshWriters(t, stale, '', settled) : new Set();
}

/**
 * The files `refreshEarlyWriters` would analyse again now, so that a caller holding the
 * grammars elsewhere (the CLI's analysis thread) can analyse them there first.
 */
export function earlyWriterFiles(t: PassTarget, settled?: ReadonlySet<string>): string[] {
  const stale = earlyWriters(t);
  if (!stale) return [];
  return [...t.analyses()]
    .filter((a) => !settled?.has(a.file) && languageForFile(a.file) && stale(a.accesses))
    .map((a) => a.file);
}

/** Which writes `refreshEarlyWriters` analyses again; null when no table is defined. */
function earlyWriters(t: PassTarget): ((accesses: readonly Access[]) => boolean) | null {
  const definitions = t.facts.tableDefinitions();
  const tables = new Set(definitions.map(([table]) => table));
  if (tables.size === 0) return null;
  const keys = indexKeysByTable(definitions);
  const own = partitionKeysByTable(definitions);
  return (accesses) => writesStale(accesses, tables, keys) || writesOtherKey(accesses, own);
}

/**
 * The second pass over a workspace: files the pre-scan passed over that import a
 * wrapper module found in the first pass are analysed for the calls they make
 * through it. Returns the key families touched.
 */
export function analyzeWrapperCallers(
  t: PassTarget,
  files: Iterable<string>,
  settled?: ReadonlySet<string>,
): Set<string> {
  const touched = new Set<string>();
  const pending = leftOut(t, files, settled);
  // A caller may wrap in turn (a service between a controller and a repository): a few rounds.
  for (let round = 0; round < WRAPPER_ROUNDS && t.facts.hasWrappers; round++) {
    const before = t.facts.wrapperCount;
    for (const file of pending) {
      const language = languageForFile(file);
      if (!language || !importsWrapperModule(t, file)) continue;
      const text = t.openText(file) ?? readFromDisk(file);
      pending.delete(file);
      if (text !== null && !mayContainDynamoDbCalls(text))
        for (const key of t.update(file, text, language)) touched.add(key);
    }
    if (t.facts.wrapperCount === before) break;
  }
  return touched;
}

/**
 * Whether the passes may analyse a file, so that a caller that analysed the workspace
 * elsewhere (the CLI's analysis thread) loads the parsers only then.
 */
export function passesMayAnalyse(t: PassTarget, files: Iterable<string>, settled?: ReadonlySet<string>): boolean {
  if (wrapperCallersPending(t, files, settled)) return true;
  const stale = earlyWriters(t);
  return !!stale && [...t.analyses()].some((a) => !settled?.has(a.file) && stale(a.accesses));
}

/** Whether the wrapper-caller pass has a file to analyse. */
export function wrapperCallersPending(t: PassTarget, files: Iterable<string>, settled?: ReadonlySet<string>): boolean {
  return t.facts.hasWrappers && [...leftOut(t, files, settled)].some((f) => importsWrapperModule(t, f));
}

/** The writers to analyse again (`earlyWriterFiles`) and the table definitions to read them with. */
export interface EarlyWriters {
  files: string[];
  definitions: TableDefinition[];
}

/** Files the pre-scan passed over: only they can have been left out of the first pass. */
function leftOut(t: PassTarget, files: Iterable<string>, settled?: ReadonlySet<string>): Set<string> {
  return new Set(
    [...files].filter((f) => {
      if (settled?.has(f)) return false;
      const a = t.analysisOf(f);
      return a?.accesses.length === 0 && !a.skipped;
    }),
  );
}

/** Whether a file imports a wrapper module: what it imports, noted when it was read, else its head. */
function importsWrapperModule(t: PassTarget, file: string): boolean {
  const language = languageForFile(file);
  if (!language) return false;
  const imported =
    t.facts.importsNoted(file) ??
    headImports(t.openText(file) ?? readHead(file, IMPORTS_HEAD) ?? '', frontEndFor(language));
  return t.facts.importsWrapperNamed(imported);
}
