import * as path from 'node:path';
import {
  type Access,
  compileMatcher,
  type Finding,
  literalText,
  type LogicalKey,
  logicalKeyOf,
  logicalKeysOf,
  render,
  type ShardSet,
  shardSetOf,
  type ShardSuffix,
  type TemplatePart,
} from '../../engine';
import { directRequestOf, directRequestReason } from './direct-reads';
import { readerOptions } from './reader-options';
import { perFile } from './per-file';
import { analysesToScan, memoized, type FixAnswers, type FixContext, type TextChange } from './fix-model';
import { headerChanges } from './header';
import { projectLineWidth } from './line-width';
import { wrapWords } from '../generate/wrap-words';
import { importOf, planShardCount, type CountPlan } from './shard-count';
import { declaredIndexSortKey } from './index-order';
import { isPointAccess, keySite, placeName, where, type Blocked, type KeySite } from './key-sites';
import { queryRepair } from './reader-fixes';
import { tableOfCallers, throughDefaults } from './wrapper-defaults';

/**
 * A shard fix changes where every item of a logical key lives, so it is a refactor of
 * every access of the key, applied as one edit: each writer and point access gets the
 * shard part in its own key value, and each Query is replaced by a call to a
 * scatter-gather reader. `planKey` sorts the key's accesses into those three and says
 * what blocks the fix, and where, when one of them cannot be rewritten.
 */

export interface KeyPlan {
  key: LogicalKey;
  /** Puts: write-once items. */
  writers: KeySite[];
  /** Gets, updates, deletes, batch gets, transactions: one existing item by its key. */
  points: KeySite[];
  queries: Access[];
}

export const isBlocked = <T extends object>(x: T | Blocked): x is Blocked => 'blocked' in x;

/** `markReminded` in reminders.js:20 → "UpdateItem at reminders.js:20". */
export const accessAt = (ctx: FixContext, a: Access) => `${a.operation} at ${where(ctx, a.file, a.span)}`;

export function planKey(finding: Finding, ctx: FixContext): KeyPlan | Blocked {
  const key = logicalKeyOf(finding.access);
  if (!key) return { blocked: 'the key is not known' };
  return memoized(ctx, finding.access, `plan:${key.id}`, () => planAccesses(finding, key, ctx));
}

/**
 * Reads through a secondary index whose partition key is the same attribute of the same
 * table: an index keys each item by the item's own attribute, so once the writers shard
 * the attribute's value the index holds the sharded values too, and its readers (a feed
 * read newest first through a timestamp index) must query every shard like the table's.
 */
function sameAttributeIndexReads(key: LogicalKey, ctx: FixContext): Access[] {
  if (key.index !== null) return [];
  const sameTable = (t: string | null) => t === key.table || t === null || key.table === null;
  const reads = indexReadsByValue(ctx).get(indexValueId(key.attribute, render(key.template))) ?? [];
  return [...new Set(reads.filter((r) => sameTable(r.table)).map((r) => r.access))];
}

const indexValueId = (attribute: string, text: string) => `${attribute}\u0000${text}`;

/**
 * Every read through a secondary index, by the index key's attribute and value text: built
 * once per workspace generation (the context's memo), not once per finding — a scan of
 * every file's accesses per finding made each hover after an edit wait for 91 of them.
 */
function indexReadsByValue(ctx: FixContext): Map<string, Array<{ access: Access; table: string | null }>> {
  return memoized(ctx, ctx, 'index-reads-by-value', () => {
    const out = new Map<string, Array<{ access: Access; table: string | null }>>();
    for (const { accesses } of analysesToScan(ctx)) {
      if (accesses.length === 0) continue;
      const reads = perFile(accesses, 'index-reads', () =>
        accesses.flatMap((access) =>
          access.kind !== 'read'
            ? []
            : logicalKeysOf(access)
                .filter((k) => k.index !== null)
                .map((k) => ({ id: indexValueId(k.attribute, render(k.template)), access, table: k.table })),
        ),
      );
      for (const { id, access, table } of reads) {
        const list = out.get(id);
        if (list) list.push({ access, table });
        else out.set(id, [{ access, table }]);
      }
    }
    return out;
  });
}

/**
 * A Query of the same attribute, table and index whose key has a variable part that can
 * take this constant key's value (`f"STATE#{state}"` beside a write of `"STATE#QUEUED"`):
 * sharding the constant alone would hide its items from that read, which asks for the bare
 * value. Such a read is not an access of the key, so the fix could not rewrite it.
 */
function familyRead(key: LogicalKey, accesses: Access[], ctx: FixContext): Access | null {
  const value = literalText(key.template);
  if (value === null) return null;
  const sameTable = (t: string | null) => t === key.table || t === null || key.table === null;
  for (const { access, table } of keyedReads(ctx).get(`${key.attribute}\u0000${key.index ?? ''}`) ?? []) {
    if (!sameTable(table) || accesses.includes(access)) continue;
    const parts = access.partitionKey!.template.parts;
    if (!parts.some((p) => 'literal' in p) || parts.some((p) => 'hole' in p && p.hole.kind === 'shard')) continue;
    if (compileMatcher([{ key, template: access.partitionKey!.template }])(value).length > 0) return access;
  }
  return null;
}

/** Every Query whose partition key has a variable part, by attribute and index: once per workspace generation. */
function keyedReads(ctx: FixContext): Map<string, Array<{ access: Access; table: string | null }>> {
  return memoized(ctx, ctx, 'keyed-reads', () => {
    const out = new Map<string, Array<{ access: Access; table: string | null }>>();
    for (const { accesses } of analysesToScan(ctx)) {
      if (accesses.length === 0) continue;
      const reads = perFile(accesses, 'keyed-reads', () =>
        accesses.flatMap((access) =>
          access.operation !== 'Query' || !access.partitionKey || literalText(access.partitionKey.template) !== null
            ? []
            : logicalKeysOf(access).map((k) => ({
                id: `${k.attribute}\u0000${k.index ?? ''}`,
                access,
                table: k.table,
              })),
        ),
      );
      for (const { id, access, table } of reads) {
        const list = out.get(id);
        if (list) list.push({ access, table });
        else out.set(id, [{ access, table }]);
      }
    }
    return out;
  });
}

function planAccesses(finding: Finding, key: LogicalKey, ctx: FixContext): KeyPlan | Blocked {
  const all = [...ctx.accessesOf(key), ...sameAttributeIndexReads(key, ctx)];
  if (
    !all.includes(finding.access) &&
    !all.some((a) => a.file === finding.access.file && a.span === finding.access.span)
  )
    all.push(finding.access);
  const direct = directRequestOf(key, ctx);
  if (direct) return { blocked: directRequestReason(direct, key, ctx) };
  const family = familyRead(key, all, ctx);
  if (family)
    return {
      blocked: `the Query at ${where(ctx, family.file, family.span)} reads ${render(family.partitionKey!.template)}, of which this key is one value: it would no longer find the items of this key once they are sharded`,
    };
  // Callers that leave the key to a wrapper's parameter default: the wrapper's requests are rewritten instead.
  const accesses = throughDefaults(ctx, all);
  if (isBlocked(accesses)) return accesses;
  const partial = accesses.find((a) => a.partitionKey?.someOfPaths && !shardSetOf(a.partitionKey.template));
  if (partial) return { blocked: partialReason(ctx, partial) };
  const plan: KeyPlan = { key, writers: [], points: [], queries: [] };
  for (const a of accesses) {
    if (a.guessed) return { blocked: `${accessAt(ctx, a)} goes through a library whose code is not in the workspace` };
    if (a.partitionKey && shardSetOf(a.partitionKey.template)) continue; // already reads or writes every shard
    if (a.operation === 'Query') {
      plan.queries.push(a);
      continue;
    }
    const site = keySite(ctx, a);
    if (isBlocked(site)) return site;
    (isPointAccess(a) ? plan.points : plan.writers).push(site);
  }
  return plan;
}

/**
 * An access whose key is this one on some paths only (`BOARD#${board}` with `board` from the
 * request or `'global'`): its other values are other keys. Its reader would answer them with
 * this key's items; a shard part in its value would spread theirs too.
 */
function partialReason(ctx: FixContext, a: Access): string {
  const other =
    a.operation === 'Query'
      ? "a reader of this key's shards would answer the other values with this key's items"
      : "a shard part in its value would spread the other values' items too";
  return `the ${accessAt(ctx, a)} uses this key on some paths only (its value can be another key): ${other}`;
}

/**
 * The shard count for every file the fix touches: declared once (in the file of the
 * finding's key value, or the constant the key's sharded writers already use), and
 * imported into every other file. TypeScript and ES modules get an `export` on a new
 * declaration another file imports; CommonJS files each declare their own copy, with a
 * comment naming the files whose copies must stay equal (SL007 reports them if not).
 */
export function countChanges(
  home: Access,
  d: ShardSuffix,
  files: string[],
  ctx: FixContext,
  answers: FixAnswers | undefined,
  perFile: (file: string) => { importLines?: string[]; blocks?: string[] },
): { count: CountPlan; changes: TextChange[] } | Blocked {
  const count = planShardCount(home, d.shardCount, ctx, answers);
  const homeFile = count.reused && d.shardCount?.declaration ? d.shardCount.declaration.file : home.file;
  const changes: TextChange[] = [];
  const others = files.filter((f) => f !== home.file);
  // CommonJS modules (often separate Lambda packages, each deployed alone) cannot import
  // the count from one another: each declares it, naming the others that must agree.
  let ownCopies = false;
  if (others.length > 0 && count.declare && !home.file.endsWith('.py')) {
    const text = ctx.textOf(home.file) ?? '';
    if (!/^\s*import\b/m.test(text) || /\brequire\(/.test(text)) ownCopies = true;
    else count.declare = count.declare.replace(/\nconst /, '\nexport const ');
  }
  for (const file of new Set([home.file, ...files])) {
    const text = ctx.textOf(file) ?? '';
    const imports = ctx.analysisOf(file)?.imports ?? [];
    const extra = perFile(file);
    let plan: CountPlan = count;
    if (ownCopies && file === home.file)
      plan = { ...count, declare: keptEqual(count, file, files, projectLineWidth(file, text)) };
    if (file !== home.file) {
      const declaredHere = new RegExp(`^\\s*(export\\s+)?(const|let|var)?\\s*${count.name}\\s*(:[^=]*)?=`, 'm').test(
        text,
      );
      const imported = imports.some((i) => i.names.includes(count.name));
      if (ownCopies && !declaredHere && !imported) {
        const copy = {
          ...count,
          declare: keptEqual(count, file, [home.file, ...files], projectLineWidth(file, text)),
          importChange: null,
        };
        changes.push(...headerChanges(file, text, imports, copy, extra));
        continue;
      }
      let importChange: CountPlan['importChange'] = null;
      if (!declaredHere && !imported && file !== homeFile) {
        const at = { ...home, file, language: file.endsWith('.py') ? ('python' as const) : home.language };
        importChange = importOf(at, imports, text, count.name, homeFile);
        if (!importChange) return { blocked: `the shard count cannot be imported into ${placeName(ctx)(file)}` };
      }
      plan = { ...count, declare: null, importChange };
    }
    changes.push(...headerChanges(file, text, imports, plan, extra));
  }
  return { count, changes };
}

/**
 * A CommonJS module's own copy of the count, naming the files whose copies must equal it:
 * its doc comment over several lines past the width.
 */
function keptEqual(count: CountPlan, file: string, files: string[], width: number): string {
  const rest = [...new Set(files.filter((f) => f !== file).map((f) => path.relative(path.dirname(file), f)))];
  return count.declare!.replace(/^\/\*\* (.*) \*\/$/m, (_, says: string) => {
    const note = `${says} Keep equal to ${count.name} in ${rest.join(', ')}.`;
    const one = `/** ${note} */`;
    return one.length <= width ? one : ['/**', ...wrapWords(note, width, ' * '), ' */'].join('\n');
  });
}

/** The read with the shard part a fix appends: what its reader reads, shard by shard. */
export function shardedSource(read: Access, separator: string, shards: ShardSet): Access {
  const pk = read.partitionKey!;
  const parts: TemplatePart[] = [
    ...pk.template.parts,
    ...(separator ? [{ literal: separator }] : []),
    { hole: { kind: 'shard', source: 'shard', shards } },
  ];
  return { ...read, partitionKey: { ...pk, template: { parts } } };
}

/** A wrapper's Query named by its own key, on the table its callers' constructions pass (`self._table`). */
function ownKeyId(ctx: FixContext, q: Access): string | null {
  const k = logicalKeyOf(q);
  const table = k && k.table === null && !k.index ? tableOfCallers(ctx, q) : null;
  return table && k ? k.id.replace(/^\? · /, `${table} · `) : (k?.id ?? null);
}

/** The sort attribute every writer of the key through `index` gives its items, when they agree. */
function writtenIndexSort(plan: KeyPlan, index: string): string | null {
  const sorts = new Set(plan.writers.filter((s) => s.access.index === index).map((s) => s.access.sortKey?.attribute));
  const [only] = sorts;
  return sorts.size === 1 && only ? only : null;
}

/** Every Query of the key replaced by its reader, or what blocks that. */
export function queryChanges(
  plan: KeyPlan,
  d: ShardSuffix,
  count: CountPlan,
  method: 'random' | 'hash',
  ctx: FixContext,
): TextChange[] | Blocked {
  const shards: ShardSet = {
    method,
    values: Array.from({ length: count.value }, (_, i) => i),
    count: { expression: count.name, name: count.name, declaration: null, value: count.value },
  };
  const written = new Set<string>();
  const out: TextChange[] = [];
  const tableSort = [...plan.writers, ...plan.points].find((s) => s.access.sortKey)?.access.sortKey?.attribute ?? null;
  for (const q of plan.queries) {
    // A Query on an index returns its items by the index's sort key, which a template may
    // declare, or which the key's writers of that index set (index-writes.ts); the table's
    // sort key would merge the shards in another order than the read's.
    const sort = q.index ? (declaredIndexSortKey(ctx, q) ?? writtenIndexSort(plan, q.index)) : tableSort;
    const source = shardedSource(q, d.separator, shards);
    // A wrapper's Query of its parameter (a caller left the key to its default) reads any value of it: named by its own key.
    const keyId = (!ctx.accessesOf(plan.key).includes(q) && ownKeyId(ctx, q)) || plan.key.id;
    const changes = queryRepair(q, source, shards, keyId, count.name, ctx, written, sort);
    if (!changes) {
      const options = readerOptions(q, ctx.textOf(q.file) ?? '', q.language === 'python');
      const why = options && 'blocked' in options ? `: ${options.blocked}` : '';
      return {
        blocked: `the Query at ${where(ctx, q.file, q.span)} cannot be replaced by a reader of every shard${why}`,
      };
    }
    out.push(...changes);
  }
  return out;
}

/**
 * All changes of one fix, deduplicated (two reads in one file may need the same
 * import), in an order an editor applies them in; blocked when two changes overlap.
 */
export function mergeChanges(ctx: FixContext, changes: TextChange[]): TextChange[] | Blocked {
  const seen = new Set<string>();
  const out: TextChange[] = [];
  for (const c of changes) {
    const k = JSON.stringify([c.file, c.span, c.newText]);
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(c);
  }
  const byFile = new Map<string, TextChange[]>();
  for (const c of out) byFile.set(c.file, [...(byFile.get(c.file) ?? []), c]);
  for (const [file, cs] of byFile) {
    const sorted = [...cs].sort(
      (a, b) =>
        a.span.startLine - b.span.startLine ||
        a.span.startColumn - b.span.startColumn ||
        a.span.endLine - b.span.endLine ||
        a.span.endColumn - b.span.endColumn,
    );
    for (let i = 1; i < sorted.length; i++) {
      const p = sorted[i - 1].span;
      const c = sorted[i].span;
      if (c.startLine < p.endLine || (c.startLine === p.endLine && c.startColumn < p.endColumn))
        return { blocked: `two edits of ${where(ctx, file, c)} overlap` };
    }
  }
  return out;
}
