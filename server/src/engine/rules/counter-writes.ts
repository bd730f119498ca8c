import type { Access, Finding, RelatedLocation } from '../model';
import { sameTable } from '../keys/table';
import { classifyAccess, literalText } from '../model/template';

/**
 * A counter item (SL004: an update every caller makes with `ADD n :one`) is often written
 * another way too: a handler that resets it (`SET IDvalue = :zero`), a seed that puts its
 * first value. Such a write is the counter's, not a constant key of its own: reported
 * apart (SL001, an error beside the counter's warning) it named the wrong hot path, and its
 * fix, a shard suffix on that one write, would store an item the counter never reads. So
 * it is one of the counter finding's related locations, which says what spreading the
 * count asks of it, and no finding of its own. Only where the counter is application code:
 * a test's increments say nothing about a handler's put.
 */
export function atCounterOnce(
  f: Finding,
  accessesOfKey: () => Access[],
  isAppCode: (a: Access) => boolean,
): Finding | null {
  const a = f.access;
  if (f.rule === 'SL001' && a.kind === 'write' && !a.increments)
    return accessesOfKey().some((c) => isCounter(c) && sameItem(c, a) && isAppCode(c)) ? null : f;
  if (f.rule !== 'SL004' || !isCounter(a) || !isAppCode(a)) return f;
  const others = accessesOfKey().filter(
    (w) => w.kind === 'write' && !w.increments && !w.library?.schema && sameItem(w, a),
  );
  if (!others.length) return f;
  const related: RelatedLocation[] = others.map((w) => ({
    file: w.file,
    span: w.span,
    message: `this ${w.call.callee} writes the same counter item: once the count is spread over N items, it must write each of them`,
  }));
  return { ...f, related: [...f.related, ...related] };
}

/** An increment of one item whose whole key is written out (constant partition key, constant sort key or none). */
function isCounter(a: Access): boolean {
  return a.kind === 'write' && classifyAccess(a) === 'counter' && itemOf(a) !== null;
}

/** The same stored item: table, index, and the item's key written out in full. */
function sameItem(x: Access, y: Access): boolean {
  const item = itemOf(x);
  return item !== null && item === itemOf(y) && sameTable(x.table, y.table) && (x.index ?? null) === (y.index ?? null);
}

/** The item's whole key as text, when no part of it varies: null otherwise. */
function itemOf(a: Access): string | null {
  const pk = a.partitionKey ? literalText(a.partitionKey.template) : null;
  if (pk === null) return null;
  const sk = a.sortKey ? literalText(a.sortKey.template) : '';
  if (sk === null) return null;
  return JSON.stringify([a.partitionKey!.attribute, pk, a.sortKey?.attribute ?? null, sk]);
}
