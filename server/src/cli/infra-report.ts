import type { JsonCoverage, JsonFunction, JsonTable } from '../../../protocol/src/report';
import type { InfraDeclarations, InfraRead } from '../engine';
import { displayPath } from './report';

/** The functions every infrastructure file declares, for `check --format json`. */
export function toJsonFunctions(declarations: readonly InfraDeclarations[]): JsonFunction[] {
  return declarations.flatMap((d) =>
    d.functions.map((f) => ({
      name: f.name,
      file: displayPath(d.file),
      line: f.source.span.startLine + 1,
      format: d.format,
      runtime: f.runtime,
      handler: f.handler,
      handlerFile: f.handlerFile ? displayPath(f.handlerFile) : null,
      handlerFunction: f.handlerFunction,
      triggers: f.triggers.map((t) => ({
        kind: t.kind,
        name: t.name,
        trigger: t.trigger,
        ratePerHour: t.ratePerHour,
        batchSize: t.batchSize ?? null,
        line: t.source.span.startLine + 1,
      })),
      environment: Object.fromEntries(
        Object.entries(f.environment).map(([k, v]) => [
          k,
          v.kind === 'table' && v.file ? { ...v, file: displayPath(v.file) } : v,
        ]),
      ),
    })),
  );
}

/** The tables every infrastructure file declares. */
export function toJsonTables(declarations: readonly InfraDeclarations[]): JsonTable[] {
  return declarations.flatMap((d) =>
    d.tables.map((t) => ({
      logicalId: t.logicalId,
      tableName: t.tableName,
      file: displayPath(d.file),
      line: t.source.span.startLine + 1,
      partitionKey: t.partitionKey,
      sortKey: t.sortKey,
      indexes: t.indexes,
      billingMode: t.billingMode,
      capacity: t.capacity,
      contributorInsights: t.contributorInsights,
    })),
  );
}

/** What `coverage.infrastructure` says: files read, and what was not read with why. */
export function infraCoverage(reads: readonly InfraRead[]): JsonCoverage['infrastructure'] | undefined {
  if (reads.length === 0) return undefined;
  const skipped: Array<{ file: string; line: number; reason: string }> = [];
  let read = 0;
  for (const r of reads) {
    if ('skipped' in r) {
      skipped.push({ file: displayPath(r.file), line: 1, reason: r.skipped });
      continue;
    }
    if (!r.declarations.unread) read++;
    for (const s of r.declarations.skipped)
      skipped.push({ file: displayPath(r.file), line: s.source.span.startLine + 1, reason: s.reason });
  }
  return { read, skipped };
}

/** The `--stats` lines for infrastructure files, or '' when there were none. */
export function formatInfraStats(c: JsonCoverage['infrastructure'] | undefined): string {
  if (!c) return '';
  const files = new Set(c.skipped.map((s) => s.file));
  const lines = [
    `Infrastructure: ${c.read} file${c.read === 1 ? '' : 's'} read` +
      (c.skipped.length
        ? `; ${c.skipped.length} part${c.skipped.length === 1 ? '' : 's'} not read in ${files.size} file${files.size === 1 ? '' : 's'}:`
        : '.'),
  ];
  for (const s of c.skipped) lines.push(`  ${s.file}:${s.line}  ${s.reason}`);
  return lines.join('\n') + '\n';
}
