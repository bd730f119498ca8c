import { type Access, type FunctionNode, functionAround, literalText, logicalKeyOf, roleOfFile } from '../../engine';
import { analysesToScan, memoized, type FixContext } from './fix-model';
import { where } from './key-sites';
import { enclosingFunction, nodeAt, withTree } from './syntax';

/**
 * A write of the key a read reads, made with what was read: a read-modify-write (a count
 * read, plus one, put back; a list read and written with one more entry). Fed a cached
 * value, it writes back what older requests saw and loses every update made since. An
 * increment (`ADD n :one`, `SET n = n + :one`) does not use what was read; a write of
 * another item under the key (a different literal sort key) does not either.
 *
 * The read and the write need not be in one function: a handler that calls a wrapper to
 * read (`readStats()`) and another to write (`saveStats(s)`), or writes itself, does the
 * same. Calls are followed as the reachability pass follows them (by name, through the
 * caller's imports), up to `CALLS_UP` calls above each: over-approximating only refuses
 * the fix where it was not needed, never offers it where an item would be lost. Tests and
 * examples are left out: they write no one's items (a script is not: it may loop).
 */

export interface WriteBack {
  write: Access;
  /** How the message names where the two meet: `in the same function`, `in handler (handler.ts:8), which calls readStats`. */
  where: string;
}

/** How many calls above the read's and the write's functions a function that does both is looked for. */
const CALLS_UP = 2;

export function writtenBack(a: Access, text: string, ctx: FixContext): WriteBack | null {
  const key = logicalKeyOf(a);
  if (!key) return null;
  const readSort = a.sortKey ? literalText(a.sortKey.template) : null;
  const keyed = ctx.accessesOf(key).filter((w) => {
    if (w.kind !== 'write' || w.increments) return false;
    const writeSort = w.sortKey ? literalText(w.sortKey.template) : null;
    return readSort === null || writeSort === null || readSort === writeSort;
  });
  // A whole item put back as it came (`save_settings(settings)` after `load_settings()`):
  // the write's key is not read, so any such write of the table may be this item's.
  const writes = [...keyed, ...(unkeyedWrites(ctx).get(tableId(a)) ?? [])];
  if (writes.length === 0) return null;
  const sameFunction = withTree(a.file, text, (tree) => {
    const fn = enclosingFunction(nodeAt(tree, a.span))?.startIndex ?? -1;
    return writes.find((w) => w.file === a.file && (enclosingFunction(nodeAt(tree, w.span))?.startIndex ?? -1) === fn);
  });
  if (sameFunction) return { write: sameFunction, where: 'in the same function' };
  const reader = placedAround(ctx, a);
  if (!reader) return null;
  const readers = callersUpTo(ctx, reader);
  for (const w of writes) {
    const writer = placedAround(ctx, w);
    // One function: the syntax above said the two are in different functions it holds (callbacks).
    if (!writer || idOf(writer) === idOf(reader)) continue;
    const writers = callersUpTo(ctx, writer);
    const both = [...readers.keys()].find((id) => writers.has(id));
    if (!both) continue;
    const meet = readers.get(both)!;
    const calls = [reader, writer].filter((f) => idOf(f) !== both).map((f) => f.node.name);
    return {
      write: w,
      where: `in ${meet.node.name} (${where(ctx, meet.file, meet.node.span)}), which calls ${calls.join(' and ')}`,
    };
  }
  return null;
}

const tableId = (a: Access) => `${a.table.kind}\0${'name' in a.table ? a.table.name : ''}`;

/** The writes of each table whose partition key is not read (a whole item passed in), by table. */
function unkeyedWrites(ctx: FixContext): Map<string, Access[]> {
  return memoized(ctx, ctx, 'unkeyed-writes', () => {
    const out = new Map<string, Access[]>();
    for (const { accesses } of analysesToScan(ctx))
      for (const w of accesses) {
        if (w.kind !== 'write' || w.increments || w.partitionKey) continue;
        out.set(tableId(w), [...(out.get(tableId(w)) ?? []), w]);
      }
    return out;
  });
}

interface Placed {
  file: string;
  node: FunctionNode;
}

const idOf = (f: Placed) => `${f.file}\0${f.node.name}\0${f.node.span.startLine}`;

/** The function of the reachability pass around the access (top-level code is `<module>`). */
function placedAround(ctx: FixContext, a: Access): Placed | null {
  const reach = ctx.analysisOf(a.file)?.reach;
  return reach ? { file: a.file, node: functionAround(reach, a) } : null;
}

/** The function and those that call it, up to `CALLS_UP` calls above, by id. */
function callersUpTo(ctx: FixContext, start: Placed): Map<string, Placed> {
  const byName = callersByName(ctx);
  const graph = ctx.calls?.();
  // A call by the name reaches the function when the caller's imports lead to it.
  const calls = (c: Placed, f: Placed) =>
    !graph || graph.callees(c.file, c.node).some((t) => t.file === f.file && idOf(t) === idOf(f));
  const out = new Map<string, Placed>([[idOf(start), start]]);
  let level = [start];
  for (let up = 0; up < CALLS_UP && level.length; up++) {
    const next: Placed[] = [];
    for (const f of level) {
      // An inline handler (`<GET /votes>`) or a file's top level is called by nothing named.
      if (f.node.name.startsWith('<')) continue;
      for (const c of byName.get(f.node.name) ?? []) {
        if (out.has(idOf(c)) || !calls(c, f) || !runsForUsers(ctx, c.file)) continue;
        out.set(idOf(c), c);
        next.push(c);
      }
    }
    level = next;
  }
  return out;
}

/** Not a test or an example: code whose writes land on someone's items. */
const runsForUsers = (ctx: FixContext, file: string): boolean =>
  memoized(ctx, ctx, `role:${file}`, () => !['test', 'example'].includes(roleOfFile(file, ctx.textOf(file))));

/** Every function of the workspace by the names it calls. */
function callersByName(ctx: FixContext): Map<string, Placed[]> {
  return memoized(ctx, ctx, 'callers-by-name', () => {
    const out = new Map<string, Placed[]>();
    for (const { file, reach } of analysesToScan(ctx)) {
      for (const node of reach?.functions ?? []) {
        for (const name of new Set(node.calls.map((c) => c.name))) {
          const list = out.get(name);
          if (list) list.push({ file, node });
          else out.set(name, [{ file, node }]);
        }
      }
    }
    return out;
  });
}
