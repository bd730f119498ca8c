import type { Node, Tree } from 'web-tree-sitter';

/**
 * Finds the call nodes a front-end should look at without visiting every node of the
 * tree: a literal scan of the source finds where a method or class name that could
 * start a DynamoDB call is written, and the tree says whether a call really starts
 * there (a mention in a comment or a string is not one). Visiting every node of a
 * large file through the wasm boundary costs far more than this.
 */
/** `pattern`'s named groups capture the callee's name. */
export function candidateCalls(tree: Tree, text: string, pattern: RegExp, callTypes: ReadonlySet<string>): Node[] {
  const found = new Map<number, Node>();
  const re = new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : pattern.flags + 'g');
  for (let m = re.exec(text); m; m = re.exec(text)) {
    // The pattern's named group (the first that matched) is the callee's name.
    const name = Object.values(m.groups ?? {}).find((g) => g !== undefined);
    const at = m.index + (name ? m[0].lastIndexOf(name) : 0);
    let n: Node | null = tree.rootNode.descendantForIndex(at);
    // Climb from the name to the call it names: at most a few levels (name → member → call).
    for (let i = 0; n && i < 4 && !callTypes.has(n.type); i++) n = n.parent;
    if (n && callTypes.has(n.type)) found.set(n.id, n);
  }
  return [...found.values()].sort((a, b) => a.startIndex - b.startIndex);
}
