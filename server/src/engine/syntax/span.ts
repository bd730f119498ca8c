import type { Node } from 'web-tree-sitter';
import type { Span } from '../model';

export function spanOf(n: Node): Span {
  return {
    startLine: n.startPosition.row,
    startColumn: n.startPosition.column,
    endLine: n.endPosition.row,
    endColumn: n.endPosition.column,
  };
}

/** Each node of the tree, depth first, without recursion (deeply nested input is legal). */
export function* walk(root: Node): Generator<Node> {
  const cursor = root.walk();
  try {
    let descending = true;
    for (;;) {
      if (descending) yield cursor.currentNode;
      if (descending && cursor.gotoFirstChild()) continue;
      if (cursor.gotoNextSibling()) {
        descending = true;
        continue;
      }
      if (!cursor.gotoParent()) return;
      descending = false;
    }
  } finally {
    cursor.delete();
  }
}

/** Whether `inner` lies inside `outer` (or is it). */
export function contains(outer: Node, inner: Node): boolean {
  return outer.startIndex <= inner.startIndex && inner.endIndex <= outer.endIndex;
}

/** Whether two spans cover the same text. */
export function sameSpan(a: Span, b: Span): boolean {
  return (
    a.startLine === b.startLine &&
    a.startColumn === b.startColumn &&
    a.endLine === b.endLine &&
    a.endColumn === b.endColumn
  );
}

/** Whether span `inner` lies inside `outer` (or is it). */
export function spanWithin(inner: Span, outer: Span): boolean {
  const before = (l1: number, c1: number, l2: number, c2: number) => l1 < l2 || (l1 === l2 && c1 <= c2);
  return (
    before(outer.startLine, outer.startColumn, inner.startLine, inner.startColumn) &&
    before(inner.endLine, inner.endColumn, outer.endLine, outer.endColumn)
  );
}
