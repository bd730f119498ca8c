/**
 * A remainder that becomes a DynamoDB key's shard suffix is no tenant's route:
 * `` pk: `ORG#${orgId}#${fnv1a(orgId) % WRITE_SHARDS}` ``, or a helper's `fnv1a(orgId) % 8`
 * that a key is written with, in this file or another. It spreads one key's writes over N
 * partition keys (a calculated write shard, whose readers SL006-SL008 judge); the tenant's
 * traffic then fills its own shard, which is what a calculated shard is for. Whether it does
 * is read from the keys themselves: each shard part of a key says where its text was written
 * (`origin`), and a route says where its remainder is (`route.hash`).
 */
import type { Access, Span } from '../../model';

/** Where the shard parts of these accesses' keys were written: `file:line:col:line:col`. */
export function shardSuffixOrigins(accesses: Iterable<Access>): Set<string> {
  const out = new Set<string>();
  for (const a of accesses) {
    if (a.library?.route) continue;
    for (const key of [a.partitionKey, a.sortKey])
      for (const p of key?.template.parts ?? [])
        if ('hole' in p && p.hole.kind === 'shard' && p.origin) out.add(where(p.origin.file || a.file, p.origin.span));
  }
  return out;
}

/** Whether an access is a route whose remainder is one of these shard suffixes. */
export function isKeyShardRoute(a: Access, suffixes: ReadonlySet<string>): boolean {
  const route = a.library?.route;
  return !!route && suffixes.has(where(a.file, route.hash));
}

/** The file's accesses less the routes that are shard suffixes of its own keys. */
export function withoutKeyShardRoutes(accesses: Access[]): Access[] {
  if (!accesses.some((a) => a.library?.route)) return accesses;
  const suffixes = shardSuffixOrigins(accesses);
  return suffixes.size === 0 ? accesses : accesses.filter((a) => !isKeyShardRoute(a, suffixes));
}

function where(file: string, s: Span): string {
  return `${file}:${s.startLine}:${s.startColumn}:${s.endLine}:${s.endColumn}`;
}
