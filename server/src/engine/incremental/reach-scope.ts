/**
 * Which nodes' reach readings an edit can change. A node's reading (`ReachReading.read`)
 * looks at the node, the types of its ancestors, and nothing else outside its statement:
 * the outermost ancestor still inside a container of statements (`ReachReading.containers`:
 * a block, a class body, the program). A decorator written before a class member is the
 * member's own sibling, so a statement's scope reaches back to the end of the statement
 * before it. An ancestor whose type changes changes the tree's structure over the whole
 * node, which the reparse's changed ranges report, so a region of changed text (the edits,
 * and the ranges the reparse restructured) changes the reading of exactly the nodes whose
 * scope it meets.
 */
import type { Node } from 'web-tree-sitter';

/** Text offsets [start, end]; two ranges meet when they overlap or one ends where the other starts. */
export interface Range {
  start: number;
  end: number;
}

/** The outermost ancestor of `n` (or `n`) whose parent is a container; the root when none is. */
function statementOf(n: Node, containers: ReadonlySet<string>): Node {
  let s = n;
  for (let p = s.parent; p && !containers.has(p.type); p = p.parent) s = p;
  return s;
}

/**
 * The text a node's reading may look at, and the row its statement starts on: every position
 * the reading gives lies in the statement, on that row or after.
 */
export interface Scope extends Range {
  row: number;
}

/** The scope of a statement: from the end of the named node before it (or its container's start) to its end. */
function statementScope(s: Node): Scope {
  const before = s.previousNamedSibling;
  return {
    start: before ? before.endIndex : (s.parent?.startIndex ?? s.startIndex),
    end: s.endIndex,
    row: s.startPosition.row,
  };
}

/** The text a node's reading may look at, besides its ancestors' types. */
export function scopeOf(n: Node, containers: ReadonlySet<string>): Scope {
  return statementScope(statementOf(n, containers));
}

export function meets(a: Range, regions: readonly Range[]): boolean {
  for (const r of regions) if (a.start <= r.end && a.end >= r.start) return true;
  return false;
}

/**
 * The nodes of `types` whose scope meets one of `regions` (offsets of the tree's text), in
 * document order. Walks down only through nodes that meet a region, and through the whole
 * of a statement whose scope does, stopping at the containers inside it.
 */
export function nodesMeeting(
  root: Node,
  regions: readonly Range[],
  types: ReadonlySet<string>,
  containers: ReadonlySet<string>,
): Node[] {
  const out: Node[] = [];
  const visit = (n: Node, scoped: boolean) => {
    if (scoped && types.has(n.type)) out.push(n);
    const container = containers.has(n.type);
    let previousEnd = n.startIndex;
    for (const c of n.namedChildren) {
      // A container's child is a statement with a scope of its own; any other node is in its parent's.
      const inScope = container ? meets({ start: previousEnd, end: c.endIndex }, regions) : scoped;
      previousEnd = c.endIndex;
      if (inScope || meets({ start: c.startIndex, end: c.endIndex }, regions)) visit(c, inScope);
    }
  };
  // The root is its own statement when it is no container.
  visit(root, !containers.has(root.type) && meets({ start: root.startIndex, end: root.endIndex }, regions));
  return out;
}
