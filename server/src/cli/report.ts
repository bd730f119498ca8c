import * as path from 'node:path';
import type { JsonAccess, JsonFinding, JsonReport } from '../../../protocol/src/report';
import type { FileAnalysis } from '../engine/analyze';
import type { Access, Finding } from '../engine/model';
import { classifyAccess, render, shardSetOf } from '../engine/template';

/** `file` as the contract wants it: relative to the current folder, with `/`. */
export function displayPath(file: string): string {
  const rel = path.relative(process.cwd(), path.resolve(file));
  return (rel.startsWith('..') || path.isAbsolute(rel) ? path.resolve(file) : rel).split(path.sep).join('/');
}

export function tableName(a: Access): string | null {
  return a.table.kind === 'literal' ? a.table.name : a.table.kind === 'env' ? `$${a.table.name}` : null;
}

export function toJsonFinding(f: Finding): JsonFinding {
  return {
    file: displayPath(f.file),
    line: f.span.startLine + 1,
    column: f.span.startColumn + 1,
    endLine: f.span.endLine + 1,
    endColumn: f.span.endColumn + 1,
    rule: f.rule,
    category: f.category,
    severity: f.severity,
    message: f.message,
    table: tableName(f.access),
    keyTemplate: f.access.partitionKey ? render(f.access.partitionKey.template) : '',
  };
}

export function toJsonAccess(a: Access): JsonAccess {
  const pk = a.partitionKey;
  const at = pk?.inline ? pk.span : a.span;
  const shards = pk ? shardSetOf(pk.template) : null;
  return {
    file: displayPath(a.file),
    line: at.startLine + 1,
    column: at.startColumn + 1,
    operation: a.operation,
    table: tableName(a),
    partitionKey: {
      attribute: pk?.attribute ?? null,
      template: pk ? render(pk.template) : null,
      classification: classifyAccess(a),
      shards: shards?.values ? shards.values.length : null,
    },
  };
}

export function toJsonReport(results: FileAnalysis[]): JsonReport {
  return {
    version: 1,
    findings: results.flatMap((r) => r.findings.map(toJsonFinding)),
    accesses: results.flatMap((r) => r.accesses.map(toJsonAccess)),
  };
}
