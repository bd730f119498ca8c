import type { Node } from 'web-tree-sitter';

/**
 * Which statements may write into a container between its declaration and a use of it,
 * read from the syntax tree alone, in either language: the ones that run on the way from
 * one to the other. Each front-end says how its statements are written
 * (`StatementSyntax`); the writes themselves are read by its own `mutations.ts`.
 */

export interface StatementSyntax {
  /** A node whose children are statements run in order (a block, a module, a `case`). */
  isBlock: (n: Node) => boolean;
  /** Statements after which the rest of their block does not run (`return`, `throw`, `raise`). */
  exits: ReadonlySet<string>;
  /** A statement that defines code rather than runs it where it stands: no write happens there. */
  definesCode: (stmt: Node) => boolean;
}

/**
 * The statements run between the declaration and the use, in order: those after the
 * declaration in its block up to the one holding the use, then, in each block inside that
 * one that holds the use (`if (triage) { params.IndexName = 'byQueue'; send(params) }`),
 * those before it. A branch the use is not in counts as a statement of its block.
 */
export function statementsOnPath(declared: Node, use: Node, syntax: StatementSyntax): Node[] {
  let declStmt: Node | null = declared;
  while (declStmt?.parent && !syntax.isBlock(declStmt.parent)) declStmt = declStmt.parent;
  const top = declStmt?.parent;
  if (!declStmt || !top) return [];
  // The blocks holding the use, innermost first, each with the statement of it the use is in.
  const levels: Array<{ block: Node; holding: Node }> = [];
  let n: Node = use;
  while (n.parent && !n.parent.equals(top)) {
    if (syntax.isBlock(n.parent)) levels.push({ block: n.parent, holding: n });
    n = n.parent;
  }
  if (!n.parent) return [];
  levels.push({ block: top, holding: n });
  const out: Node[] = [];
  for (const { block, holding } of levels.reverse()) {
    for (const stmt of block.namedChildren) {
      if (!stmt || (block.equals(top) && stmt.startIndex <= declStmt.startIndex)) continue;
      if (stmt.startIndex >= holding.startIndex) break;
      if (!syntax.definesCode(stmt)) out.push(stmt);
    }
  }
  return out;
}

/**
 * Whether `write`, inside `stmt`, sits in a block that ends in `return` or `throw` (`if
 * (triage) { params.IndexName = 'byQueue'; return send(params) }`): the path through it never
 * reaches what follows `stmt`, so a use there does not see the write.
 */
export function leavesBeforeUse(write: Node, stmt: Node, syntax: StatementSyntax): boolean {
  for (let n = write.parent; n && !n.equals(stmt); n = n.parent) {
    if (!syntax.isBlock(n)) continue;
    const last = n.namedChildren.filter((c) => c && c.type !== 'comment').at(-1);
    if (last && syntax.exits.has(last.type)) return true;
  }
  return false;
}
