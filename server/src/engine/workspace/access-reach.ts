/**
 * How the index's accesses are reached from the workspace's entry points (reach.ts), and
 * each access with that reach attached, as findings and results hand it out.
 */
import type { Access } from '../model';
import type { AccessReach } from '../model/entry-point';
import { withReach } from '../rules/reach';
import { sameSpan } from '../syntax/span';
import { givenTableOf, givenTables, sameGivenTable } from './given-tables';
import type { IndexState } from './index-state';

type ReachState = Pick<IndexState, 'files' | 'reach'>;

/** How an access of this index is reached from the workspace's entry points (reach.ts). */
export function reachOfAccess(s: ReachState, a: Access): AccessReach | undefined {
  const analysis = s.files.get(a.file);
  return analysis ? s.reach.ofFile(analysis).get(a) : undefined;
}

/** How an access is reached (its entry points), when the reachability pass could tell. */
export function entryReachOf(s: ReachState, a: Access): AccessReach | undefined {
  if (a.reach) return a.reach;
  const analysis = s.files.get(a.file);
  if (!analysis) return undefined;
  const reach = s.reach.ofFile(analysis);
  const own = reach.get(a);
  if (own) return own;
  // The same call as another analysis of the file read it (an open document): matched by position.
  for (const [b, r] of reach) if (sameSpan(b.span, a.span) && b.operation === a.operation) return r;
  return undefined;
}

/**
 * The access with its reach attached, and for a wrapper's own call the table its callers'
 * constructions give (given-tables.ts): one object per access, reach and given table (a
 * finding's access is one of its file's).
 */
export function annotated(
  s: Pick<IndexState, 'files' | 'reach' | 'annotatedOf' | 'givenTables' | 'version'>,
  a: Access,
): Access {
  const reach = reachOfAccess(s, a);
  const given = givenTableOf(a, () => s.givenTables.get(s.version, '', () => givenTables(s.files.values())));
  const known = s.annotatedOf.get(a);
  if (known && known.reach === reach && sameGivenTable(known.given, given)) return known.access;
  const access = withReach(given ? { ...a, table: given.table, injected: given.injected } : a, reach);
  s.annotatedOf.set(a, { reach, ...(given ? { given } : {}), access });
  return access;
}
