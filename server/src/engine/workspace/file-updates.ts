/**
 * Storing a file's analysis in the index, and what a change of one file sets off: the
 * modules that read its constants analysed again, the writers a changed table definition
 * reaches, the file read for its entry points. Each returns the key families touched.
 */
import { analyzeSource, DEFAULT_MAX_BYTES, emptyAnalysis, type FileAnalysis } from '../analyze';
import type { Access, SourceLanguage } from '../model';
import type { TableDefinition } from '../model/call-site';
import type { FileReach } from '../model/entry-point';
import { languageForFile } from '../syntax/parser';
import { definitionChanges, writesChanged } from './cross-module';
import { importedModules } from './env-binder';
import type { IndexState } from './index-state';
import { readFromDisk } from './modules';
import { mayChangeLookups } from './named-lookups';
import { refreshWriters } from './passes';
import { readSource } from './source';

/**
 * Reads and analyses one file from disk (or its open buffer); returns the keys it
 * touches. A first pass over the workspace passes `refresh = false`: modules are
 * read when first imported, so there is nothing stale to refresh yet.
 */
export function analyzeFile(s: IndexState, file: string, refresh = true): Set<string> {
  const language = languageForFile(file);
  if (!language) return new Set();
  const open = s.options.openText?.(file);
  const source = open != null ? { text: open } : readSource(file, s.options.maxBytes ?? DEFAULT_MAX_BYTES);
  if ('skipped' in source) return storeAnalysis(s, emptyAnalysis(file, language, source.skipped));
  return updateFile(s, file, source.text, language, refresh);
}

/**
 * Analyses one file's text; with `refresh`, files that import constants from it
 * are analysed again. Returns the key families touched. `priorReach`: the file's reach
 * as last read, kept if the text is the same.
 */
export function updateFile(
  s: IndexState,
  file: string,
  text: string,
  language: SourceLanguage,
  refresh = true,
  priorReach?: FileReach,
): Set<string> {
  const before = JSON.stringify(s.files.get(file)?.definitions ?? []);
  const options = priorReach ? { ...s.analyzeOptions, priorReach } : s.analyzeOptions;
  const analysis = analyzeSource(file, text, language, options);
  s.facts.noteImports(analysis, text);
  const touched = storeAnalysis(s, analysis);
  // A first pass reads entry-point files once every file is in (completePasses).
  if (refresh) readEntryFile(s, file);
  if (!refresh) return touched;
  for (const key of refreshDependents(s, file)) touched.add(key);
  const after = s.files.get(file)?.definitions ?? [];
  if (JSON.stringify(after) !== before) {
    // Only the writers the change can reach: a table's writers, or those that set a changed index's key.
    const changes = definitionChanges(JSON.parse(before) as TableDefinition[], after);
    const stale = (accesses: readonly Access[]) => writesChanged(accesses, changes);
    for (const key of refreshWriters(s.passTarget, stale, file)) touched.add(key);
  }
  return touched;
}

/**
 * A module changed: forget its constants and re-analyse the files that used them, also
 * through the modules between (a repository reads an ElectroDB entity through the
 * service module that lists it: `DBService.entities.delegate`). Each module between
 * kept what it read of the changed one, so it is forgotten too.
 */
export function refreshDependents(s: IndexState, file: string): Set<string> {
  // A file created: an import that found nothing, or another file, may name it now.
  const resolved = s.modules.presenceChanged(file) ? s.modules.resolutionsNow() : null;
  const stale = new Set<string>([file]);
  for (const queue = [file]; queue.length > 0;) {
    const module = queue.pop()!;
    // The changed file was analysed just before: what that analysis looked up is kept.
    s.modules.forget(module, module === file);
    for (const d of s.modules.dependentsOf(module))
      if (!stale.has(d)) {
        stale.add(d);
        queue.push(d);
      }
  }
  // A connection or a Nest model made or changed where none of these files reads: those that looked it up by name.
  if (s.modules.hasLookups && mayChangeLookups(file, s.options.openText?.(file) ?? readFromDisk(file)))
    for (const f of s.modules.lookupsMoved()) stale.add(f);
  if (resolved) for (const f of s.modules.resolutionsMoved(resolved)) stale.add(f);
  stale.delete(file);
  return reanalyse(s, stale);
}

/** Analyses files of the index again from their current text; returns the key families touched. */
function reanalyse(s: IndexState, files: Iterable<string>): Set<string> {
  const touched = new Set<string>();
  for (const file of files) {
    if (!s.files.has(file)) continue;
    const language = languageForFile(file);
    const text = s.options.openText?.(file) ?? readFromDisk(file);
    if (!language || text === null) continue;
    for (const key of storeAnalysis(s, analyzeSource(file, text, language, s.analyzeOptions))) touched.add(key);
    s.reread.add(file);
  }
  return touched;
}

/**
 * The files `refreshDependents` analysed again since last asked. Their findings may have
 * changed although no key family now holds them: a TypeDORM connection that listed an
 * entity with a constant key has no access left once the key is edited back, and
 * `filesOf` the keys touched no longer names it.
 */
export function takeReread(s: IndexState): string[] {
  const files = [...s.reread];
  s.reread.clear();
  return files;
}

/** After `file` changed: reads it for its entry points when it declares some into code the index holds. */
export function readEntryFile(s: IndexState, file: string): boolean {
  const analysis = s.files.get(file);
  return !!analysis && s.reach.readEntryFile(analysis, (a) => storeAnalysis(s, a));
}

/**
 * Stores an analysis made elsewhere (the editor's open document), marks the key
 * families whose accesses in this file changed for re-checking, and returns those
 * whose change other files can see (an access added, removed or different in any
 * way, positions included). An edit that leaves every access of a family as it was
 * touches nothing: typing inside one function does not republish the workspace.
 */
export function storeAnalysis(s: IndexState, analysis: FileAnalysis): Set<string> {
  const file = analysis.file;
  if (!sameModules(s.files.get(file), analysis)) s.env.importsChanged();
  s.files.set(file, analysis);
  s.reach.noted(analysis);
  const wrappers = s.facts.wrapperCount;
  s.facts.note(analysis);
  if (s.facts.wrapperCount !== wrappers) s.modules.wrappersChanged();
  const touched = s.groups.place(file, analysis.accesses);
  s.version++;
  return touched;
}

/** Takes a deleted file out of the index; returns the key families it had. */
export function forgetFile(s: IndexState, file: string): Set<string> {
  // A file deleted: the imports that named it name another file now, or none.
  const resolved = s.modules.presenceChanged(file) ? s.modules.resolutionsNow() : null;
  s.env.forget(file);
  s.modules.forget(file);
  s.reach.forget(file);
  s.facts.forget(file);
  s.files.delete(file);
  const before = s.groups.remove(file);
  s.version++;
  // The imports that named it, and the lookups by name it answered (a connection, a model): judged again.
  const moved = new Set(resolved ? s.modules.resolutionsMoved(resolved) : []);
  if (s.modules.hasLookups) for (const f of s.modules.lookupsMoved()) moved.add(f);
  moved.delete(file);
  for (const key of reanalyse(s, moved)) before.add(key);
  return before;
}

/** Whether two analyses' imports name the same modules, in order (a missing list names none). */
function sameModules(a: FileAnalysis | undefined, b: FileAnalysis): boolean {
  const x = a ? importedModules(a) : [];
  const y = importedModules(b);
  return x.length === y.length && x.every((m, k) => m === y[k]);
}
