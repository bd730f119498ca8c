import * as path from 'node:path';
import type {
  JsonAccess,
  JsonCoverage,
  JsonFinding,
  JsonFix,
  JsonFunction,
  JsonLocation,
  JsonTable,
  JsonReport,
  JsonShardCount,
} from '../../../protocol/src/report';
import {
  type Access,
  classifyAccess,
  type FileAnalysis,
  type Finding,
  type FixDescriptor,
  type KeyUse,
  logicalKeyOf,
  render,
  type ShardCount,
  shardSetOf,
  type SortKeyCondition,
  type Span,
  tableName,
} from '../engine';

/** `file` as the contract wants it: relative to the current folder, with `/`. */
export function displayPath(file: string): string {
  const cwd = process.cwd();
  if (cwd !== displayedIn) {
    displayed.clear();
    displayedIn = cwd;
  }
  let shown = displayed.get(file);
  if (shown === undefined) {
    const rel = path.relative(cwd, path.resolve(file));
    shown = (rel.startsWith('..') || path.isAbsolute(rel) ? path.resolve(file) : rel).split(path.sep).join('/');
    displayed.set(file, shown);
  }
  return shown;
}

// A report names the same few hundred files thousands of times (each access, finding, entry
// point): each resolved once per working directory.
const displayed = new Map<string, string>();
let displayedIn = '';

/** A zero-based span in a file as the contract's 1-based location. */
export function location(file: string, span: Span): JsonLocation {
  return {
    file: displayPath(file),
    line: span.startLine + 1,
    column: span.startColumn + 1,
    endLine: span.endLine + 1,
    endColumn: span.endColumn + 1,
  };
}

function shardCount(c: ShardCount | null | undefined): JsonShardCount | null {
  if (!c) return null;
  const declaration = c.declaration ? location(c.declaration.file, c.declaration.span) : null;
  return { expression: c.expression, name: c.name, declaration, value: c.value };
}

export function toJsonFix(f: FixDescriptor): JsonFix {
  switch (f.kind) {
    case 'add-shard-suffix':
      return { ...f, at: location(f.at.file, f.at.span), shardCount: shardCount(f.shardCount) };
    case 'scatter-gather-reader':
      return {
        ...f,
        shards: { method: f.shards.method, values: f.shards.values, count: shardCount(f.shards.count) },
        writer: location(f.writer.file, f.writer.span),
      };
    case 'align-shard-range':
      return { ...f, writer: location(f.writer.file, f.writer.span) };
    case 'paginate-shards':
    case 'spread-counter':
    case 'cache-read':
    case 'rekey-record':
      return { ...f };
    case 'dedicated-tenants':
      return { kind: f.kind, key: f.key, tenant: f.route.tenant };
  }
}

export function toJsonFinding(f: Finding): JsonFinding {
  return {
    ...location(f.file, f.span),
    rule: f.rule,
    category: f.category,
    severity: f.severity,
    message: f.message,
    table: tableName(f.access.table),
    keyTemplate: f.access.partitionKey ? render(f.access.partitionKey.template) : '',
    related: (f.related ?? []).map((r) => ({ ...location(r.file, r.span), message: r.message })),
    fixes: (f.fixes ?? []).map(toJsonFix),
    context: f.context ?? 'app',
    ...(f.keyUse ? { keyUse: keyUseJson(f.keyUse) } : {}),
  };
}

/** A finding's key use as the contract has it (the `mostly` flag stays in the message). */
export function keyUseJson(u: KeyUse): NonNullable<JsonFinding['keyUse']> {
  return {
    verdict: u.verdict,
    reads: u.reads,
    writes: u.writes,
    readEntries: u.readEntries,
    writeEntries: u.writeEntries,
    ...(u.directReads ? { directReads: u.directReads } : {}),
    ...(u.directWrites ? { directWrites: u.directWrites } : {}),
    ...(u.stepReads ? { stepReads: u.stepReads } : {}),
    ...(u.stepWrites ? { stepWrites: u.stepWrites } : {}),
    // Only a verdict live data decided says so: one the code decided reads as before.
    ...(u.live ? { source: 'live' as const, live: { ...u.live } } : {}),
  };
}

/** `sk BETWEEN :a AND :b` as `{ attribute, operator: 'BETWEEN', template: 'A AND B' }`. */
function sortKey(a: Access): JsonAccess['sortKey'] {
  const c: SortKeyCondition | null =
    a.sortCondition ?? (a.sortKey ? { attribute: a.sortKey.attribute, operator: '=', operands: [a.sortKey] } : null);
  if (!c) return null;
  return {
    attribute: c.attribute,
    operator: c.operator,
    template: c.operands.map((o) => render(o.template)).join(' AND '),
  };
}

export function toJsonAccess(a: Access): JsonAccess {
  const pk = a.partitionKey;
  // The version 1 meaning of `line`: the key where it is written in the call, else the call.
  const at = pk?.inline ? pk.span : a.span;
  const shards = pk ? shardSetOf(pk.template) : null;
  return {
    file: displayPath(a.file),
    line: at.startLine + 1,
    column: at.startColumn + 1,
    operation: a.operation,
    table: tableName(a.table),
    partitionKey: {
      attribute: pk?.attribute ?? null,
      template: pk ? render(pk.template) : null,
      classification: classifyAccess(a),
      shards: shards?.values ? shards.values.length : null,
    },
    index: a.index ?? null,
    logicalKey: logicalKeyOf(a)?.id ?? null,
    sortKey: sortKey(a),
    use: pk?.use ? { line: pk.use.startLine + 1, column: pk.use.startColumn + 1 } : null,
    ...(a.through
      ? {
          through: {
            file: displayPath(a.through.file),
            line: a.through.span.startLine + 1,
            column: a.through.span.startColumn + 1,
          },
        }
      : {}),
    ...(a.guessed ? { guessed: true as const } : {}),
    ...(a.operationUnread ? { operationFrom: a.operationUnread } : {}),
    ...('fromEnv' in a.table && a.table.fromEnv
      ? { tableFrom: { ...a.table.fromEnv, file: displayPath(a.table.fromEnv.file) } }
      : {}),
    ...(a.table.kind === 'env' && a.table.candidates ? { tableCandidates: a.table.candidates } : {}),
    ...(a.reach ? reachOf(a.reach) : {}),
  };
}

function reachOf(r: NonNullable<Access['reach']>): Pick<JsonAccess, 'entryPoints' | 'reach'> {
  return {
    entryPoints: r.entryPoints.map((e) => ({
      kind: e.kind,
      name: e.name,
      trigger: e.trigger,
      ratePerHour: e.ratePerHour,
      file: displayPath(e.source.file),
      line: e.source.span.startLine + 1,
    })),
    ...(r.oncePerBatch ? { reach: 'once-per-batch' as const } : r.unreached ? { reach: 'unreached' as const } : {}),
  };
}

/** A file or folder that was not analysed, and why (`binary file`, `not a regular file (a FIFO)`). */
export interface SkippedPath {
  /** As `file` elsewhere: relative to the current folder, with `/`. */
  file: string;
  reason: string;
}

/** The skipped files of an analysis and the folders that could not be listed, in path order. */
export function skippedOf(results: FileAnalysis[], folders: SkippedPath[]): SkippedPath[] {
  const files = results.filter((r) => r.skipped).map((r) => ({ file: displayPath(r.file), reason: r.skipped! }));
  const dirs = folders.map((f) => ({ file: displayPath(f.file), reason: f.reason }));
  return [...files, ...dirs].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}

/**
 * Version 1 plus `skipped` and `coverage` (both added within the version: readers ignore
 * fields they do not know).
 */
export type JsonCheckReport = JsonReport & {
  skipped: SkippedPath[];
  coverage?: JsonCoverage;
  /** What infrastructure code declares (added within version 1; absent when the workspace has none). */
  functions?: JsonFunction[];
  tables?: JsonTable[];
};
export type { JsonCoverage };

export function toJsonReport(
  results: FileAnalysis[],
  skipped: SkippedPath[] = skippedOf(results, []),
  coverage?: JsonCoverage,
  infrastructure: { functions: JsonFunction[]; tables: JsonTable[] } | null = null,
): JsonCheckReport {
  return {
    version: 1,
    findings: results.flatMap((r) => r.findings.map(toJsonFinding)),
    accesses: results.flatMap((r) => r.accesses.map(toJsonAccess)),
    skipped,
    ...(coverage ? { coverage } : {}),
    ...(infrastructure ?? {}),
  };
}
