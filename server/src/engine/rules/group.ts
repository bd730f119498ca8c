import type { Access, Finding, Severity } from '../model';
import { describeShards, holes, render } from '../template';
import { shardShape, tableId, type ShardShape } from '../workspace/logical-key';
import { tableLabel } from './table-label';

/** The accesses of one logical key across the workspace, as the cross-file rules see them. */
export interface KeyGroup {
  key: string;
  accesses: Access[];
  /** `path:line` for messages, relative to the workspace root. */
  where(a: Access): string;
}

export interface GroupRule {
  code: string;
  category: string;
  defaultSeverity: Severity;
  summary: string;
  check(group: KeyGroup, severity: Severity): Finding[];
}

export function sameTable(a: Access, b: Access): boolean {
  const x = tableId(a.table);
  const y = tableId(b.table);
  return x === '*' || y === '*' || x === y;
}

export function shardHoleOf(a: Access) {
  return a.partitionKey ? holes(a.partitionKey.template).find((h) => h.kind === 'shard') : undefined;
}

/** Writes that put a shard part into the key. */
export function shardedWriters(g: KeyGroup): Array<{ access: Access; shape: ShardShape }> {
  return g.accesses.flatMap((a) => {
    const shape = a.kind === 'write' && a.partitionKey ? shardShape(a.partitionKey.template) : null;
    return shape ? [{ access: a, shape }] : [];
  });
}

/** Reads that loop over a shard set: a scatter-gather reader. */
export function isScatterGather(a: Access): boolean {
  const h = shardHoleOf(a);
  return a.kind === 'read' && !!h && (h.shards?.method === 'loop' || h.shards?.method === 'list');
}

export function finding(rule: GroupRule, severity: Severity, a: Access, message: string): Finding {
  const pk = a.partitionKey!;
  return {
    file: a.file,
    span: pk.inline ? pk.span : a.span,
    rule: rule.code,
    category: rule.category,
    severity,
    message,
    access: a,
  };
}

export function keyOf(a: Access): string {
  return a.partitionKey ? render(a.partitionKey.template) : '?';
}

export function shardsText(a: Access): string {
  return describeShards(shardHoleOf(a)?.shards);
}

export { tableLabel };
