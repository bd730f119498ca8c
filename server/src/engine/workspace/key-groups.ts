import { familyOf, logicalKeysOf } from '../keys/logical-key';
import { sameTable, tableKey } from '../keys/table';
import { subjectOf, type Access, type Finding, type ShardCount, type TableRef } from '../model';
import { shardCountOfAccess, shardSeparatorOf } from '../rules/group';

/**
 * Judges one key family's accesses across files (the cross-file rules), given the files
 * that hold them: the index knows their contexts and how to name a place.
 */
export type JudgeFamily = (family: string, accesses: Access[], files: ReadonlySet<string> | undefined) => Finding[];

/**
 * The workspace's accesses grouped by key *family* (the logical key without its table,
 * `familyOf`: a call whose table is unknown may address any table, and the rules compare
 * tables themselves), and the cross-file findings of each family. A family whose accesses
 * changed is marked and judged again only when findings are next read.
 */
export class KeyGroups {
  /** File → its accesses by key family, computed once when the file is placed. */
  private readonly familiesOfFile = new Map<string, Map<string, Access[]>>();
  private readonly filesOfFamily = new Map<string, Set<string>>();
  /** Family → file → the cross-file findings placed in that file. */
  private readonly groupFindings = new Map<string, Map<string, Finding[]>>();
  /** Family → the shard count its sharded writers use, one per table: for the fixes of unsharded writes. */
  private readonly writerCounts = new Map<string, WriterShards[]>();
  /** Families whose group changed and whose cross-file findings are not computed yet. */
  private readonly dirty = new Set<string>();

  constructor(private readonly judge: JudgeFamily) {}

  /**
   * Places a file's accesses in their families, marks the families whose accesses in this
   * file changed for judging, and returns those whose change other files can see (an
   * access added, removed or different in any way, positions included).
   */
  place(file: string, accesses: readonly Access[]): Set<string> {
    const previous = this.familiesOfFile.get(file);
    // Most files make no call: nothing to place or take out (5,000 of them restored from a cache).
    if (!previous && accesses.length === 0) return new Set();
    const before = [...(previous?.keys() ?? [])];
    const byFamily = new Map<string, Access[]>();
    for (const a of accesses) {
      // A Kafka record's key or a tenant's route is no DynamoDB key: no shards to read back, no table.
      if (subjectOf(a)) continue;
      for (const k of logicalKeysOf(a)) {
        const family = familyOf(k);
        const list = byFamily.get(family);
        // A literal-shard read belongs to two keys, but never twice to one.
        if (!list) byFamily.set(family, [a]);
        else if (list[list.length - 1] !== a) list.push(a);
      }
    }
    this.relink(file, before, byFamily);
    const touched = new Set<string>();
    for (const family of new Set([...before, ...byFamily.keys()])) {
      const old = previous?.get(family);
      const now = byFamily.get(family);
      if (sameObjects(old, now)) continue;
      this.dirty.add(family);
      if (!sameContent(old, now)) touched.add(family);
    }
    return touched;
  }

  /** Takes a file's accesses out of their families; returns the families it had. */
  remove(file: string): Set<string> {
    const before = [...(this.familiesOfFile.get(file)?.keys() ?? [])];
    this.relink(file, before, new Map());
    for (const key of before) this.dirty.add(key);
    return new Set(before);
  }

  private relink(file: string, before: string[], after: Map<string, Access[]>): void {
    for (const k of before) {
      const set = this.filesOfFamily.get(k);
      set?.delete(file);
      if (set?.size === 0) this.filesOfFamily.delete(k);
    }
    for (const k of after.keys()) {
      let set = this.filesOfFamily.get(k);
      if (!set) this.filesOfFamily.set(k, (set = new Set()));
      set.add(file);
    }
    if (after.size) this.familiesOfFile.set(file, after);
    else this.familiesOfFile.delete(file);
  }

  /** Computes the cross-file findings of every family changed since the last read. */
  private flush(): void {
    for (const key of this.dirty) this.recheck(key);
    this.dirty.clear();
  }

  private recheck(family: string): void {
    const files = this.filesOfFamily.get(family);
    // In path order, so which writer a message names does not depend on the order files arrived in.
    const accesses = [...(files ?? [])].sort().flatMap((f) => this.familiesOfFile.get(f)?.get(family) ?? []);
    // Every cross-file rule needs a shard part somewhere in the group: most keys have none.
    if (!accesses.some((a) => a.partitionKey?.template.parts.some((p) => 'hole' in p && p.hole.kind === 'shard'))) {
      this.groupFindings.delete(family);
      this.writerCounts.delete(family);
      return;
    }
    const byFile = new Map<string, Finding[]>();
    for (const f of this.judge(family, accesses, files)) {
      const list = byFile.get(f.file);
      if (list) list.push(f);
      else byFile.set(f.file, [f]);
    }
    this.groupFindings.set(family, byFile);
    this.writerCounts.set(family, firstCountPerTable(accesses));
  }

  /** The cross-file findings placed in `file`, every changed family judged first. */
  findingsIn(file: string): Finding[] {
    this.flush();
    const cross: Finding[] = [];
    for (const k of this.familiesIn(file)) for (const f of this.groupFindings.get(k)?.get(file) ?? []) cross.push(f);
    return cross;
  }

  /**
   * A file's own add-shard-suffix fix knows only the shard counts of its own file; the
   * workspace may have a sharded writer of the same key elsewhere, whose count and
   * separator it should use, so the fixed writer stores what that key's readers read.
   */
  withWorkspaceShardCount(f: Finding): Finding {
    const i = f.fixes.findIndex((x) => x.kind === 'add-shard-suffix' && x.shardCount === null);
    if (i < 0) return f;
    for (const k of logicalKeysOf(f.access)) {
      const hit = this.writerCounts.get(familyOf(k))?.find((c) => sameTable(c.table, f.access.table));
      if (!hit) continue;
      const fixes = f.fixes.map((x, j) =>
        j === i && x.kind === 'add-shard-suffix'
          ? { ...x, shardCount: hit.count, separator: hit.separator ?? x.separator }
          : x,
      );
      return { ...f, fixes };
    }
    return f;
  }

  /** Every access of a key family across the workspace, files in path order, and those files. */
  accessesOf(family: string): { accesses: Access[]; files: ReadonlySet<string> } {
    const files = this.filesOfFamily.get(family) ?? new Set<string>();
    const accesses = [...files].sort().flatMap((f) => this.familiesOfFile.get(f)?.get(family) ?? []);
    return { accesses, files };
  }

  /** Every key family with accesses in the workspace. */
  families(): Iterable<string> {
    return this.filesOfFamily.keys();
  }

  /** The key families `file` has accesses of. */
  familiesIn(file: string): Iterable<string> {
    return this.familiesOfFile.get(file)?.keys() ?? [];
  }

  /** The files holding accesses of these key families: whose findings a change may alter. */
  filesOf(keys: Iterable<string>): Set<string> {
    const out = new Set<string>();
    for (const k of keys) for (const f of this.filesOfFamily.get(k) ?? []) out.add(f);
    return out;
  }
}

/** The count and separator of a key's first sharded writer on one table. */
interface WriterShards {
  table: TableRef;
  count: ShardCount;
  separator: string | null;
}

/** The first sharded writer's count and separator for each table of a group, in group order. */
function firstCountPerTable(accesses: Access[]): WriterShards[] {
  const byTable = new Map<string, WriterShards>();
  for (const a of accesses) {
    if (a.kind !== 'write' || byTable.has(tableKey(a.table))) continue;
    const count = shardCountOfAccess(a);
    if (count) byTable.set(tableKey(a.table), { table: a.table, count, separator: shardSeparatorOf(a) });
  }
  return [...byTable.values()];
}

function sameObjects(a: Access[] | undefined, b: Access[] | undefined): boolean {
  return !!a && !!b && a.length === b.length && a.every((x, i) => x === b[i]);
}

/** An access as other files' findings may quote it (computed once per access object). */
const contentOf = new WeakMap<Access, string>();

function content(a: Access): string {
  let c = contentOf.get(a);
  if (c === undefined) contentOf.set(a, (c = JSON.stringify(a)));
  return c;
}

function sameContent(a: Access[] | undefined, b: Access[] | undefined): boolean {
  return !!a && !!b && a.length === b.length && a.every((x, i) => x === b[i] || content(x) === content(b[i]));
}
