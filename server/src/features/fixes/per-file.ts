import type { Access } from '../../engine';

/**
 * What a fix derives from one file's accesses, kept while the file's analysis stands: the
 * workspace-wide indexes the fixes build once per index generation (every index read by
 * key value, every request not understood...) are put together from these, so an edit of
 * one file derives again from that file alone. Keyed by the analysis's `accesses` array,
 * which a fix context's view of an analysis shares with the index's (and which a new
 * analysis of the file replaces), and by `also` when the result reads more of the analysis
 * (its file contexts, which may be worked out again for the same accesses).
 */
const derived = new WeakMap<readonly Access[], Map<string, unknown>>();
const ids = new WeakMap<object, number>();
let nextId = 0;

export function perFile<T>(accesses: readonly Access[], what: string, derive: () => T, also?: object): T {
  let own = derived.get(accesses);
  if (!own) derived.set(accesses, (own = new Map()));
  let key = what;
  if (also) {
    let id = ids.get(also);
    if (id === undefined) ids.set(also, (id = nextId++));
    key = `${what}\u0000${id}`;
  }
  if (!own.has(key)) own.set(key, derive());
  return own.get(key) as T;
}
