import { tableName, type Access } from '../../engine';
import type { FixContext } from './fix-model';
import { isParameter } from './key-edit';
import { where, type Blocked } from './key-sites';
import { nodeAt, withTree } from './syntax';

/**
 * A key a caller leaves to a wrapper's parameter default: the routes of a Chalice app
 * call `db.add_item(text)`, `db.get_item(uid)` on a repository whose methods take
 * `username=DEFAULT_USERNAME`. The key's value is the default, but the request that
 * writes it is the wrapper's (`"username": username`), and so is every other request
 * of the same key attribute on the same table, whatever username a caller passes.
 *
 * The shard fix therefore rewrites the wrapper's requests rather than the callers: the
 * suffix goes on the parameter where each request uses it (`f"{username}#{...}"`), so
 * every caller, those that leave the default out and those that pass a user, stores and
 * finds its items the same way, and each Query of the wrapper becomes a reader of every
 * shard of the username it is given. The wrapper's requests are the accesses of that key
 * attribute on that table in the workspace (its "family"); the fix is offered only when
 * no other request of the attribute could address the same items unseen.
 */

const sameSpot = (x: Access, file: string, span: Access['span']) =>
  x.file === file && x.span.startLine === span.startLine && x.span.startColumn === span.startColumn;

/** Whether the caller's key is a default of the wrapper's parameter (directly, or a constant through it). */
export function keyFromDefault(ctx: FixContext, a: Access): boolean {
  const parts = a.partitionKey?.template.parts ?? [];
  if (!a.through || parts.length === 0) return false;
  return parts.every((p) => {
    const o = p.origin;
    if (!o || o.file === a.file) return false;
    const atDefault = (file: string, span: Access['span']) => {
      const t = ctx.textOf(file);
      return t !== null && !!withTree(file, t, (tree) => isParameter(nodeAt(tree, span)));
    };
    return atDefault(o.file, o.span) || o.via.some((v) => atDefault(v.file, v.valueSpan));
  });
}

/** The accesses made in the workspace's own code (not a caller's view of a wrapper's). */
function ownAccesses(ctx: FixContext, files: string[]): Access[] {
  return files.flatMap((f) => (ctx.analysisOf(f)?.accesses ?? []).filter((x) => !x.through && !x.guessed));
}

/** One table: a known name, or the receiver of an unknown one within one file (`self._table` of one class). */
function tableId(a: Access): string {
  const t = a.table;
  return t.kind === 'unknown' ? `?${a.file}\0${t.source ?? ''}` : `${t.kind}:${t.name}`;
}

/**
 * The one table a wrapper's request names by a field (`self._table`) as every caller's
 * construction passes it (`$APP_TABLE_NAME`), for the words of generated code; null
 * when callers pass different tables or one not known.
 */
export function tableOfCallers(ctx: FixContext, w: Access): string | null {
  if (w.table.kind !== 'unknown') return null;
  const files = ctx.files?.() ?? [w.file];
  const seen = tablesOfCallers(ctx, files, w);
  if (seen?.length !== 1) return null;
  const view = files
    .flatMap((f) => ctx.analysisOf(f)?.accesses ?? [])
    .find((x) => x.through && sameSpot(w, x.through.file, x.through.span));
  return view ? tableName(view.table) : null;
}

/**
 * The tables a wrapper's request whose own module cannot name its table (`self._table`)
 * addresses, as its callers see them: the table each caller's construction of the class
 * passes. Null when some caller's table is not known either.
 */
function tablesOfCallers(ctx: FixContext, files: string[], w: Access): string[] | null {
  const views = files.flatMap((f) =>
    (ctx.analysisOf(f)?.accesses ?? []).filter((x) => x.through && sameSpot(w, x.through.file, x.through.span)),
  );
  if (views.length === 0 || views.some((x) => x.table.kind === 'unknown')) return null;
  return [...new Set(views.map(tableId))];
}

/**
 * The accesses a shard fix of `all` (the accesses of one logical key) must rewrite:
 * each caller that leaves the key to a wrapper's default is replaced by the wrapper's
 * request it reaches, joined by every other request of the same key attribute on the
 * same table. Unchanged when no caller leaves the key to a default; blocked when a
 * request of the attribute on a table not known elsewhere could be one of them.
 */
export function throughDefaults(ctx: FixContext, all: Access[]): Access[] | Blocked {
  const defaulted = all.filter((a) => keyFromDefault(ctx, a));
  if (defaulted.length === 0) return all;
  const files = ctx.files?.() ?? [...new Set(all.flatMap((a) => [a.file, a.through?.file ?? a.file]))];
  const own = ownAccesses(ctx, files);
  const out: Access[] = all.filter((a) => !defaulted.includes(a));
  const family = new Set<string>();
  // Unknown tables of the wrapper that its callers name (the table their construction passes).
  const named = new Set<string>();
  const attribute = defaulted[0].partitionKey!.attribute;
  for (const a of defaulted) {
    const w = own.find((x) => sameSpot(x, a.through!.file, a.through!.span));
    if (!w || w.partitionKey?.attribute !== attribute)
      return {
        blocked: `the request at ${where(ctx, a.through!.file, a.through!.span)} that ${a.operation} at ${where(ctx, a.file, a.span)} reaches is not read`,
      };
    family.add(tableId(w));
    const seen = w.table.kind === 'unknown' ? tablesOfCallers(ctx, files, w) : null;
    if (seen) {
      named.add(tableId(w));
      for (const t of seen) family.add(t);
    }
  }
  for (const x of own) {
    if (x.partitionKey?.attribute !== attribute || x.index !== null) continue;
    if (family.has(tableId(x))) {
      if (!out.includes(x)) out.push(x);
      continue;
    }
    // Another request of the attribute on a table that may be the same one: its items could be the wrapper's.
    const unknown = x.table.kind === 'unknown' || [...family].some((id) => id.startsWith('?') && !named.has(id));
    if (unknown)
      return {
        blocked: `the ${x.operation} at ${where(ctx, x.file, x.span)} also addresses ${attribute} items, on a table not known to be another`,
      };
  }
  return out;
}
