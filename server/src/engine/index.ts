/**
 * The engine's public entry: the CLI, the language server, live heat and the fixes
 * import the engine from here only (`.dependency-cruiser.cjs` checks it), so what they
 * rely on is this one list and the stages behind it can move. Tests may reach inside.
 */
// What the features use, by the stage module that makes it.
export { analyzeSource, emptyAnalysis, judgeAnalysis } from './analyze';
export type { AnalyzeOptions, FileAnalysis } from './analyze';
export {
  PLANNED_WRITE_UNITS_PER_SHARD,
  READ_UNITS_PER_PARTITION,
  WRITE_UNITS_PER_PARTITION,
  formatUnits,
  shardsForPeak,
  suggestedShardCount,
  writeUnitsPerItem,
} from './requests/capacity';
export {
  REASONS,
  countCoverage,
  coverageOf,
  fileCoverage,
  reachedBy,
  reachedSites,
  whyUnresolved,
} from './requests/coverage';
export type { FileCoverage } from './requests/coverage';
export { AnalyzedDocument } from './incremental/document';
export type { TextEdit } from './incremental/document';
export { MAX_DEPTH } from './frontends/evaluation';
export { keyLabel, logicalKeyOf, logicalKeysOf, modelOf, shardShape } from './keys/logical-key';
export type { KeyMatch } from './keys/matcher';
export { compileMatcher } from './keys/matcher';
export { directRequestLabel, directRequestsOf } from './keys/direct-requests';
export { mayBeSameTable, tableName, tableShown } from './keys/table';
export { envReadShown } from './requests/env';
export type {
  Access,
  Classification,
  Finding,
  FixDescriptor,
  ImportInfo,
  KeyOperator,
  KeyUse,
  LiveUse,
  KeyValue,
  LibraryAccess,
  LibraryEditSites,
  LibraryPatternSites,
  LibraryName,
  LogicalKey,
  SdkStyle,
  Severity,
  ShardCount,
  ShardSet,
  ShardSuffix,
  SortKeyCondition,
  SourceLanguage,
  SourceRange,
  Span,
  TemplatePart,
  WrittenRequest,
} from './model';
export type { AccessSubject } from './model';
export type { AccessReach, FileReach, FunctionNode } from './model/entry-point';
export type { TableDefinition } from './model/call-site';
export type { CallGraph } from './entry-points';
export { functionAround } from './entry-points';
export { reachOfText } from './entry-points/file';
export { isKafkaAccess, subjectOf } from './model';
export { classifyAccess, classifyTemplate, describeShards, literalText, render, shardSetOf } from './model/template';
export { escapeRegExp } from './model/regexp';
export { classifyName, words } from './frontends/names';
export { initParsers, languageForFile, languageForId, parse } from './syntax/parser';
export { infrastructureNeedsParsers } from './frontends/infra';
export { mayContainDynamoDbCalls, reasonToSkip } from './syntax/prescan';
export { addShardSuffix } from './rules/finding';
export { shardCountOfAccess, shardHoleOf } from './rules/group';
export { RULE_INFO, defaultSeverityOf, docsUrl, hotKeyLive } from './rules';
export { tenantComposite, type TenantComposite } from './rules/SL022-low-cardinality-composite';
export { CACHE_TTL_SECONDS, judgeByLive, useText } from './rules/key-use';
export { CACHE_HELPERS } from './frontends/cached-reads';
export { cacheableLibraryRead } from './model/libraries';
export { SHARD_PAGE_READER } from './model/fix-helpers';
export { sameSpan, spanOf, spanWithin, walk } from './syntax/span';
export { AnalysisCache, ENGINE_VERSION, cacheDir, stampsBefore } from './workspace/cache';
export type { CacheSetup } from './workspace/cache';
export { forgetWalkListings, noteWalkedFolder, walkedFileExists, walkedKind } from './file-roles/walk-listings';
export { indexWorkspace } from './workspace/cache/run';
export { collectFiles, walkListsPath, type FileList } from './workspace/files';
export { installedNote } from './workspace/installed-packages';
export { compiledNote, compiledOutputsOf } from './workspace/compiled-output';
export { VersionedMemo } from './workspace/versioned-memo';
export { isInfrastructureCandidate } from './frontends/infra';
export type { InfraRead } from './workspace/infra';
export type { NamedTable } from './requests/declared-names';
export type {
  DirectAccess,
  EntryKind,
  EntryPoint,
  EnvBinding,
  EnvValue,
  FileEnv,
  IndexDefinition,
  InfraDeclarations,
  InfraFunction,
  InfraTable,
  KeyAttribute,
} from './model/entry-point';
export { WorkspaceIndex, infrastructureOf } from './workspace';
export type { KeyEntry, TableEntry } from './workspace';
export { ModuleConstants } from './workspace/modules';
export type { Resolution } from './workspace/import-resolutions';
export type { WorkspaceLookup } from './workspace/workspace-lookups';
export { readSource } from './workspace/source';
export { enclosingNamedFunction } from './frontends/wrappers/functions';
export { frontEndFor } from './frontends/registry';
export { DEFAULT_MAX_BYTES } from './analyze';
export { projectRootOf, roleOfFile, setRoleOverride } from './file-roles';
export { isOneOff } from './file-roles/role';
export { isOneOffEntry } from './model/entry-point';
export { unusedIgnores } from './rules/suppress';
export type { UnusedIgnore } from './rules/suppress';
export { readFromDisk } from './workspace/modules';
export type { ReadText } from './workspace/source';
export { readsHold, type ModuleRead } from './module-reads';
