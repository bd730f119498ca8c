/**
 * Makes the parts of a workspace index (index-state.ts) and wires them to each other:
 * each part asks the others through callbacks, read when called, so the order they are
 * made in matters only for what a constructor takes.
 */
import { DEFAULT_MAX_BYTES, type AnalyzeOptions, type FileAnalysis } from '../analyze';
import type { KeyUse } from '../model';
import { languageForFile } from '../syntax/parser';
import { contextsOf, judgeFamily, placeOf } from './cross-file-rules';
import { CrossModuleFacts } from './cross-module';
import { DeclaredTables } from './declared-tables';
import { DefinitionFindings } from './definition-findings';
import { EnvBinder } from './env-binder';
import { hotSourceFindings } from './file-results';
import { storeAnalysis, updateFile } from './file-updates';
import { InfraRegistry, withOpenBuffers } from './infra';
import type { IndexOptions, IndexState } from './index-state';
import { KeyGroups } from './key-groups';
import { ModuleConstants, readFromDisk } from './modules';
import type { PassTarget } from './passes';
import { WorkspaceReach } from './reach';
import { TableFindings } from './table-findings';
import { VersionedMemo } from './versioned-memo';
import type { GivenTable } from './given-tables';

export function createIndexState(options: IndexOptions): IndexState {
  const files = new Map<string, FileAnalysis>();
  const groups = new KeyGroups((family, accesses, held) => judgeFamily(s, family, accesses, held));
  const facts = new CrossModuleFacts();
  const openText = options.openText;
  const infra = new InfraRegistry(options.maxBytes ?? DEFAULT_MAX_BYTES, openText && withOpenBuffers(openText));
  const env = new EnvBinder(infra, {
    analyses: () => files,
    importedFile: (file, language, source) => modules.importedFile(file, language, source),
    reanalyse: (file) => {
      const language = languageForFile(file);
      const text = options.openText?.(file) ?? readFromDisk(file);
      // Only the bindings moved: the reach read from the same text is kept (its hash says so).
      const prior = files.get(file)?.reach;
      return language && text !== null ? updateFile(s, file, text, language, false, prior) : new Set<string>();
    },
    namedTables: () => declared.namedTables(),
  });
  const modules = new ModuleConstants(
    options.root,
    (f) => options.openText?.(f) ?? readFromDisk(f),
    (text, language) => facts.importsWrapper(text, language),
  );
  const analyzeOptions: AnalyzeOptions = {
    ...options,
    ...modules.readers,
    recordReads: true,
    mayCallWrappers: (text, language) =>
      facts.hasWrappers && facts.importsWrapperNamed(facts.importsOf(text, language)),
    tableDefinitions: () => facts.tableDefinitions(),
    envTables: (file) => env.of(file),
    declaredTables: (file) => env.namedOf(file),
  };
  const reach = new WorkspaceReach({
    root: options.root,
    analyses: () => files.values(),
    analysisOf: (file) => files.get(file),
    importsNoted: (file) => facts.importsNoted(file),
    importersOf: (name) => facts.importersOf(name),
    text: (f) => options.openText?.(f) ?? readFromDisk(f),
    importFile: (from, module) => {
      const language = languageForFile(from);
      return language ? modules.importedFile(from, language, module) : null;
    },
    // The triggers templates declare for each function, and any the caller adds.
    infra: {
      version: () => infra.version,
      declarations: () => infra.declarations(),
      extra: () => options.infraEntryPoints?.() ?? [],
    },
  });
  const declared = new DeclaredTables({
    version: () => infra.version,
    declarations: () => infra.declarations(),
  });
  const tables = new TableFindings(declared, {
    version: () => `${s.version}:${infra.version}`,
    analyses: () => files.values(),
    contextsOf: (held) => contextsOf(files, held),
    where: (at) => placeOf(options.root, at),
    severity: options.severity ?? {},
    contexts: options.contexts,
  });
  const definitions = new DefinitionFindings(declared, tables, {
    version: () => `${s.version}:${infra.version}`,
    hotSources: () => hotSourceFindings(s),
    analysedIgnores: (file) => files.get(file)?.ignores,
    text: (file) => options.openText?.(file) ?? readFromDisk(file),
  });
  const passTarget: PassTarget = {
    facts,
    analyzeOptions,
    analysisOf: (file) => files.get(file),
    analyses: () => files.values(),
    openText: (file) => options.openText?.(file),
    set: (analysis) => storeAnalysis(s, analysis),
    update: (file, text, language) => updateFile(s, file, text, language, false),
  };
  const s: IndexState = {
    options,
    files,
    groups,
    version: 0,
    reach,
    annotatedOf: new WeakMap(),
    modules,
    infra,
    env,
    facts,
    analyzeOptions,
    passTarget,
    declared,
    tables,
    definitions,
    keyUses: new VersionedMemo<KeyUse>(),
    givenTables: new VersionedMemo<Map<string, GivenTable>>(),
    reread: new Set<string>(),
  };
  return s;
}
