/**
 * A remainder that becomes a DynamoDB key's shard suffix is no tenant's route:
 * `` pk: `ORG#${orgId}#${fnv1a(orgId) % WRITE_SHARDS}` ``, or a helper's `fnv1a(orgId) % 8`
 * that a key in the same file is written with. It spreads one key's writes over N partition
 * keys (a calculated write shard, whose readers SL006-SL008 judge); the tenant's traffic then
 * fills its own shard, which is what a calculated shard is for. Whether it does is read from
 * the keys themselves: each shard part of a key says where its text was written (`origin`),
 * and a route says where its remainder is (`route.hash`).
 */
import type { Access, Span } from '../../model';

export function withoutKeyShardRoutes(accesses: Access[]): Access[] {
  if (!accesses.some((a) => a.library?.route)) return accesses;
  const suffixes = new Set<string>();
  for (const a of accesses) {
    if (a.library?.route) continue;
    for (const key of [a.partitionKey, a.sortKey])
      for (const p of key?.template.parts ?? [])
        if ('hole' in p && p.hole.kind === 'shard' && p.origin)
          suffixes.add(where(p.origin.file || a.file, p.origin.span));
  }
  if (suffixes.size === 0) return accesses;
  return accesses.filter((a) => !a.library?.route || !suffixes.has(where(a.file, a.library.route.hash)));
}

function where(file: string, s: Span): string {
  return `${file}:${s.startLine}:${s.startColumn}:${s.endLine}:${s.endColumn}`;
}
