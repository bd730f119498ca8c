import type { AnalyzeOptions, FileAnalysis } from '../analyze';
import type { Access, KeyUse } from '../model';
import type { AccessReach, EntryPoint } from '../model/entry-point';
import type { CrossModuleFacts } from './cross-module';
import type { DeclaredTables } from './declared-tables';
import type { DefinitionFindings } from './definition-findings';
import type { EnvBinder } from './env-binder';
import type { GivenTable } from './given-tables';
import type { InfraRegistry } from './infra';
import type { KeyGroups } from './key-groups';
import type { ModuleConstants } from './modules';
import type { PassTarget } from './passes';
import type { WorkspaceReach } from './reach';
import type { TableFindings } from './table-findings';
import type { VersionedMemo } from './versioned-memo';

export interface IndexOptions extends AnalyzeOptions {
  /** Messages name other files relative to this folder; Python imports resolve up to it. */
  root: string;
  /** A file's current text when it is open in an editor, else null (then it is read from disk). */
  openText?: (file: string) => string | null;
  /** Entry points infrastructure code declares (templates), when a reader of them is installed. */
  infraEntryPoints?: () => readonly EntryPoint[];
}

/**
 * What a workspace index (index.ts) holds: each file's analysis, the accesses grouped by
 * key family, the cross-file facts the analyses are made with, and the table rules' state.
 * index-wiring.ts makes it; file-updates.ts, the findings modules (cross-file-rules.ts,
 * code-findings.ts, file-results.ts), access-reach.ts and infra-reads.ts are functions over it.
 */
export interface IndexState {
  readonly options: IndexOptions;
  readonly files: Map<string, FileAnalysis>;
  /** The accesses of every file by key family, and each family's cross-file findings. */
  readonly groups: KeyGroups;
  /** Bumped on every change: what is worked out per version (the matcher, key uses, table findings) is kept until the next one. */
  version: number;
  /** How each access is reached from the workspace's entry points (reach.ts). */
  readonly reach: WorkspaceReach;
  /** Each access with its reach attached, one object per access and version of its reach. */
  readonly annotatedOf: WeakMap<Access, { reach: AccessReach | undefined; given?: GivenTable; access: Access }>;
  readonly modules: ModuleConstants;
  /** The infrastructure files (templates, Serverless services) and what they declare. */
  readonly infra: InfraRegistry;
  /** Which tables environment variables name in each file (env-binder.ts). */
  readonly env: EnvBinder;
  readonly facts: CrossModuleFacts;
  /** The options to analyse a file of this workspace with (imports resolve across files). */
  readonly analyzeOptions: AnalyzeOptions;
  /** What the passes over the whole workspace (passes.ts) see of this index. */
  readonly passTarget: PassTarget;
  /** The tables infrastructure code declares, and the table rules over the accesses on them. */
  readonly declared: DeclaredTables;
  readonly tables: TableFindings;
  /** The table rules' findings on the definitions (SL013), by the file each definition is written in. */
  readonly definitions: DefinitionFindings;
  /**
   * How the workspace uses each key, per version of the index: every finding of a key asked
   * for it again (91 findings of the bench's 3,000-line file, ~20 ms of each re-publish).
   */
  readonly keyUses: VersionedMemo<KeyUse>;
  /** The tables wrappers' own calls are given by their callers' constructions (given-tables.ts), per version. */
  readonly givenTables: VersionedMemo<Map<string, GivenTable>>;
  /** The files `refreshDependents` (file-updates.ts) analysed again since `takeReread` last asked. */
  readonly reread: Set<string>;
}
