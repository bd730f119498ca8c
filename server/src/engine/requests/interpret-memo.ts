import { hintTableOf, accessesOfCallSite, learnKeySchemas, schemaHintOf } from './interpret';
import { type CallSite, type KeySchemaHints } from '../model/call-site';
import type { Access, Span } from '../model';
import { moveSpans } from '../syntax/positions';

/**
 * Interpreting a call site is pure: the same site and the same key-schema hints give
 * the same accesses. An edited document keeps most of its sites, so their accesses
 * are kept too — and carried over, with their positions moved, when an edit above
 * them shifts the site.
 */
const memo = new WeakMap<CallSite, { hints: string; accesses: Access[] }>();
const hintOf = new WeakMap<CallSite, ReturnType<typeof schemaHintOf>>();

/** Hints are compared by content; computed once per set of hints, not once per site. */
const keyOf = new WeakMap<KeySchemaHints, string>();

function hintsKey(h: KeySchemaHints): string {
  let key = keyOf.get(h);
  if (key === undefined) keyOf.set(h, (key = JSON.stringify([...h])));
  return key;
}

export function learnKeySchemasMemo(sites: CallSite[]): KeySchemaHints {
  return learnKeySchemas(sites, (s) => {
    if (!hintOf.has(s)) hintOf.set(s, schemaHintOf(s));
    return hintOf.get(s)!;
  });
}

export function accessesOfCallSiteMemo(site: CallSite, hints: KeySchemaHints): Access[] {
  // A single-table call reads only its table's hints: a change to another table's calls keeps its accesses.
  const own = hintTableOf(site);
  const key = own === null ? hintsKey(hints) : JSON.stringify(hints.get(own) ?? null);
  const cached = memo.get(site);
  if (cached?.hints === key) return cached.accesses;
  const accesses = accessesOfCallSite(site, hints);
  memo.set(site, { hints: key, accesses });
  return accesses;
}

/** A site moved by an edit keeps what was computed for it, at its new position. */
export function carryOver(from: CallSite, to: CallSite, shift: (s: Span) => Span): void {
  if (hintOf.has(from)) hintOf.set(to, hintOf.get(from)!);
  const cached = memo.get(from);
  if (!cached) return;
  memo.set(to, { hints: cached.hints, accesses: moveSpans(cached.accesses, shift, from.file) });
}
