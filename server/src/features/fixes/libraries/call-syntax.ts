import type { Node } from 'web-tree-sitter';
import type { Access } from '../../../engine';
import type { FixContext } from '../fix-model';
import { withTree } from '../syntax';

/**
 * A library call as the fixes edit it: the call expression of an access, found in its
 * file's tree from the access's span, and its arguments without comments. Shared by the
 * providers whose accesses are method calls (OneTable's `Score.find(...)`, TypeDORM's
 * `entityManager.findOne(Score, ...)`).
 */
export function withCall<T>(ctx: FixContext, a: Access, use: (call: Node) => T): T | null {
  const text = ctx.textOf(a.file);
  if (text === null) return null;
  return withTree(a.file, text, (tree) => {
    // From the span's start: `nodeAt` of a call written over several lines may miss it.
    const start = { row: a.span.startLine, column: a.span.startColumn };
    let n: Node | null = tree.rootNode.namedDescendantForPosition(start, start);
    let first: Node | null = null;
    for (; n; n = n.parent) {
      if (n.type !== 'call_expression') continue;
      first ??= n;
      if (n.endPosition.row === a.span.endLine && n.endPosition.column === a.span.endColumn) return use(n);
    }
    return first ? use(first) : null;
  });
}

export const argsOf = (call: Node) =>
  (call.childForFieldName('arguments')?.namedChildren ?? []).filter((x): x is Node => !!x && x.type !== 'comment');

/** The top-level statement holding a node: where a generated function goes after it. */
export function topStatement(n: Node): Node {
  let top = n;
  while (top.parent && top.parent.type !== 'program') top = top.parent;
  return top;
}
