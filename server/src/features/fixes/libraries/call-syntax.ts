import type { Node, Tree } from 'web-tree-sitter';
import type { Access, Span } from '../../../engine';
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
    const { ending, innermost } = callsAt(tree, a.span);
    const call = ending ?? innermost;
    return call ? use(call) : null;
  });
}

/**
 * The call expressions around a span's start: the one ending where the span ends (a chain's
 * last step, `E.get(...).go()`), and the innermost. From the span's start: `nodeAt` of a call
 * written over several lines may miss it.
 */
export function callsAt(tree: Tree, span: Span): { ending: Node | null; innermost: Node | null } {
  const start = { row: span.startLine, column: span.startColumn };
  let innermost: Node | null = null;
  for (let n: Node | null = tree.rootNode.namedDescendantForPosition(start, start); n; n = n.parent) {
    if (n.type !== 'call_expression') continue;
    innermost ??= n;
    if (n.endPosition.row === span.endLine && n.endPosition.column === span.endColumn) return { ending: n, innermost };
  }
  return { ending: null, innermost };
}

export const argsOf = (call: Node) =>
  (call.childForFieldName('arguments')?.namedChildren ?? []).filter((x): x is Node => !!x && x.type !== 'comment');

/** The top-level statement holding a node: where a generated function goes after it. */
export function topStatement(n: Node): Node {
  let top = n;
  while (top.parent && top.parent.type !== 'program') top = top.parent;
  return top;
}
