/**
 * What changed between two states of the workspace's reach, so an edit re-judges only what
 * it can have changed: a file's reach compared by shape (positions aside), the accesses of
 * a file compared as text, and after a template edit the files no changed entry point reaches.
 */
import type { ReachState } from '../entry-points';
import type { Access } from '../model';
import type { AccessReach, EntryPoint, FileReach } from '../model/entry-point';

/**
 * Whether a file's accesses are reached alike in `before` and `after`, two states of the
 * same code whose templates' entry points differ: true for a file none of the entry points
 * that changed reaches (before or after), whose project is known alike in both. Any other
 * difference (the code changed, the unchanged entry points in another order) says nothing
 * is known to be unchanged.
 */
export function unchangedFiles(before: ReachState, after: ReachState): (file: string) => boolean {
  const never = () => false;
  if (before.code !== after.code) return never;
  const text = (e: EntryPoint) => entryText(e);
  const count = (es: readonly EntryPoint[]) => {
    const m = new Map<string, number>();
    for (const e of es) m.set(text(e), (m.get(text(e)) ?? 0) + 1);
    return m;
  };
  const had = count(before.graph.entries);
  const has = count(after.graph.entries);
  const changed = (i: number, es: readonly EntryPoint[], other: Map<string, number>) => !other.has(text(es[i]));
  const kept = (es: readonly EntryPoint[], other: Map<string, number>) =>
    es.map((e) => text(e)).filter((t) => other.has(t));
  // Entries shared by both, in the same order and each once: an access's entry points keep their order.
  const a = kept(before.graph.entries, has);
  const b = kept(after.graph.entries, had);
  if (a.join('\n') !== b.join('\n') || a.some((t) => had.get(t) !== 1 || has.get(t) !== 1)) return never;
  const touched = new Set<string>();
  const mark = (state: ReachState, es: readonly EntryPoint[], other: Map<string, number>) => {
    es.forEach((e, i) => {
      if (!changed(i, es, other)) return;
      const root = state.graph.roots[i];
      for (const node of state.code.calls.reachedFrom(root.file, root.root).keys()) touched.add(node.split('\0')[0]);
    });
  };
  mark(before, before.graph.entries, has);
  mark(after, after.graph.entries, had);
  // The same code and template folders: every project is known alike.
  const dirsOf = (s: ReachState) => [...s.infraDirs, '', ...s.uncertainDirs].join('\n');
  const sameDirs = dirsOf(before) === dirsOf(after);
  return (file) => !touched.has(file) && (sameDirs || before.known(file) === after.known(file));
}

const entryTexts = new WeakMap<EntryPoint, string>();
function entryText(e: EntryPoint): string {
  let t = entryTexts.get(e);
  if (t === undefined) entryTexts.set(e, (t = JSON.stringify(e)));
  return t;
}

/** What of a file's reach the graph depends on: everything but positions. */
export function shapeOf(reach: FileReach | undefined, noted: readonly string[] | undefined): string {
  if (!reach) return JSON.stringify(noted ?? null);
  return JSON.stringify([
    reach.functions.map((f) => [f.name, f.exported, f.named ?? false, f.calls, f.loops.length, f.owner ?? null]),
    reach.imports,
    reach.classes,
    // Whole, positions too: the messages name where each entry point is declared.
    reach.entries,
    reach.declaresApp,
    noted ?? null,
  ]);
}

/** A file's reach as text, for comparing two versions of it: each access by its position. */
export function reachText(reach: Map<Access, AccessReach>): string {
  return JSON.stringify([...reach].map(([a, r]) => [a.span, r]));
}
