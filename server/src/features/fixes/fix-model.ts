import type {
  Access,
  CallGraph,
  DirectAccess,
  FileAnalysis,
  Finding,
  InfraTable,
  LogicalKey,
  Span,
} from '../../engine';

/**
 * The plain data the fixes exchange. Fixes are pure functions from the engine's
 * model (a finding, its access, the texts of the files involved) to text changes;
 * the language server turns a `FixAction` into an LSP `CodeAction` with a
 * `WorkspaceEdit`, the CLI and tests apply the changes to strings.
 */

/** One replacement in one file; zero-based positions in the text as it is now. */
export interface TextChange {
  file: string;
  span: Span;
  newText: string;
}

/** A choice a fix needs from the user (a quick pick or an input box in VS Code). */
export type FixQuestion =
  | { kind: 'shard-count'; suggested: number }
  | { kind: 'hash-attribute'; options: string[] }
  | { kind: 'reader-file'; suggested: string };

/** The answers a fix was computed with (defaults when nothing was asked). */
export interface FixAnswers {
  shardCount?: number;
  hashAttribute?: string;
  readerFile?: string;
}

export interface FixAction {
  /** What the light bulb shows: "Add a random write-shard suffix (10 shards)". */
  title: string;
  /** A stable id of the fix kind, e.g. `add-random-shard`, `generate-reader`. */
  id: string;
  /** The finding it fixes (rule code), when it fixes one. */
  rule?: string;
  /** The fix the editor should suggest first. */
  preferred?: boolean;
  /** Safe to apply unasked (`source.fixAll.shardlens`): cannot change behaviour unexpectedly. */
  safe: boolean;
  /** Questions the command form asks before computing the edit; the code action uses the defaults. */
  asks: FixQuestion[];
  /** Changes per file; every change's positions are in that file's current text. */
  changes: TextChange[];
  /** A shard fix's spread of its key (count, random or hashed attribute): what its backfill script must repeat. */
  shard?: ShardPlanned;
  /** Where the change lands for the user's eyes (the generated reader), if somewhere new. */
  reveal?: { file: string; span: Span };
}

/** What a fix may read of the workspace. */
export interface FixContext {
  /** A file's current text (an open editor's buffer first), or null. */
  textOf(file: string): string | null;
  /** The analysis of a file (its accesses, findings, imports). */
  analysisOf(file: string): FileAnalysis | null;
  /** Every access of a logical key across the workspace, in path order. */
  accessesOf(key: LogicalKey): Access[];
  /** Every analysed file of the workspace (to find other callers of a mapper); when absent, the files of the key's accesses. */
  files?(): string[];
  /**
   * Every file's analysis as the index holds it, without the cross-file findings
   * `analysisOf` adds: for scans of the workspace's accesses, which need no findings.
   */
  analyses?(): Iterable<FileAnalysis>;
  /**
   * When the workspace stays as it is while the context is used: `compute()` once per
   * `owner` (an access, a finding's access) and `what`, its result shared afterwards.
   * Results must not be changed by those who read them.
   */
  memo?<T>(owner: object, what: string, compute: () => T): T;
  /** The calls of the workspace's functions, each name resolved through the caller's imports. */
  calls?(): CallGraph;
  /** The tables infrastructure code declares (templates, Serverless services): an index's sort key. */
  tables?(): InfraTable[];
  /** The DynamoDB requests state machines and API integrations make in infrastructure code. */
  directAccesses?(): readonly DirectAccess[];
  /** `shardlens.shards.defaultCount` and `shardlens.shards.peakWriteUnits`. */
  shards: { defaultCount: number; peakWriteUnits: number };
}

/** Every file's analysis for a scan of the workspace's accesses: the index's own when the context gives them. */
export const analysesToScan = (ctx: FixContext): Iterable<FileAnalysis> =>
  ctx.analyses?.() ?? (ctx.files?.() ?? []).flatMap((f) => ctx.analysisOf(f) ?? []);

/** `ctx.memo`, or `compute()` each time when the context keeps nothing. */
export const memoized = <T>(ctx: FixContext, owner: object, what: string, compute: () => T): T =>
  ctx.memo ? ctx.memo(owner, what, compute) : compute();

/** The fixes one finding offers, given the answers (or defaults). */
export type FixProvider = (finding: Finding, ctx: FixContext, answers?: FixAnswers) => FixAction[];

/** What a shard fix tells its backfill about the key it spreads (set by the random and calculated fixes). */
export interface ShardPlanned {
  method: 'random' | 'hash';
  count: number;
  countName: string;
  /** The hashed attribute, with `hash`; null when the name is a caller's variable, not an attribute known to be stored. */
  hashAttribute: string | null;
}
