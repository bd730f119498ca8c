import {
  type Access,
  compileMatcher,
  literalText,
  type LogicalKey,
  logicalKeysOf,
  mayBeSameTable,
  reachedBy,
  reachedSites,
  tableName,
  whyUnresolved,
} from '../../engine';
import { analysesToScan, memoized, type FixContext } from './fix-model';
import { where } from './key-sites';
import { perFile } from './per-file';

/**
 * A request of the key's table whose key ShardLens could not read (`Key: keyFor(kind, id)`
 * from a package outside the workspace, a request object passed in, an operation chosen at
 * run time) may be a request of this very key. A shard fix cannot rewrite it, and once the
 * key's items move to its shards that request would miss them: a get finds nothing, an
 * update creates a second, unsharded item. So a shard fix is refused while one exists, and
 * says where, so the user can make it readable (or shard it by hand).
 *
 * Tests are left out: a test that reads the key fails by itself after the fix, and
 * corrupts nothing. A request whose key is read in part is one only when its known part can take this key's
 * value (`{unknown}` can, `USER#{unknown}` cannot be `tickets`). A wrapper's own call that
 * callers reach is read at each caller, not here.
 */
export function unreadRequestOf(key: LogicalKey, ctx: FixContext): { access: Access; detail: string } | null {
  const value = literalText(key.template);
  for (const { access: a, detail } of unreadRequests(ctx)) {
    // An access of this very key (its table unknown, as the key's is): the fix rewrites it.
    if (logicalKeysOf(a).some((k) => k.id === key.id)) continue;
    if (!mayBeSameTable(tableName(a.table), key.table)) continue;
    if ((a.index ?? null) !== key.index && a.index !== null && !a.indexUnknown) continue;
    const pk = a.partitionKey;
    if (pk) {
      if (pk.attribute !== key.attribute || value === null) continue;
      if (compileMatcher([{ key, template: pk.template }])(value).length === 0) continue;
    }
    return { access: a, detail };
  }
  return null;
}

export function unreadRequestReason(found: { access: Access; detail: string }, ctx: FixContext): string {
  const a = found.access;
  return `ShardLens could not read all of the ${a.operation} at ${where(ctx, a.file, a.span)} (${found.detail}): if it is a request of this key, it would no longer find the items once they are sharded`;
}

/** Every request of the workspace not understood, with why: once per workspace generation. */
function unreadRequests(ctx: FixContext): Array<{ access: Access; detail: string }> {
  return memoized(ctx, ctx, 'unread-requests', () => {
    // Files that make no call have nothing to derive (4,850 of bench/workspace's 5,000).
    const analyses = [...analysesToScan(ctx)].filter((f) => f.accesses.length > 0);
    const sites = new Set(analyses.flatMap((f) => perFile(f.accesses, 'through-sites', () => [...reachedSites([f])])));
    const out: Array<{ access: Access; detail: string }> = [];
    for (const f of analyses) {
      // A test's request is checked by the test itself once the key moves: it breaks no item.
      const test = (a: Access) => f.contexts?.[a.file]?.role === 'test';
      const candidates = perFile(
        f.accesses,
        'unread',
        () =>
          f.accesses.flatMap((a) => {
            // A library outside the workspace: refused on its own account.
            if (test(a) || a.guessed) return [];
            const why = whyUnresolved(a);
            return why ? [{ access: a, detail: why.detail }] : [];
          }),
        f.contexts,
      );
      // A wrapper's own call that callers reach is read at each caller.
      for (const c of candidates) if (!reachedBy(sites, c.access)) out.push(c);
    }
    return out;
  });
}
