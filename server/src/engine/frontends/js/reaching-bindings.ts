import type { Node, Tree } from 'web-tree-sitter';
import { reachingDefinitions } from '../reaching';
import { findBinding, isFunction, treeText, type Binding } from './scope';

/**
 * The assignments `name = value` (not `+=`) between two offsets, found where the text
 * writes `name =`: every keystroke brings a new tree, and walking all of its assignments
 * for each name cost a third of an edit's re-analysis in a 3,000-line file.
 */
function assignmentsOf(tree: Tree, name: string, from: number, to: number): Node[] {
  const base = tree.rootNode.startIndex;
  const text = treeText(tree);
  const out: Node[] = [];
  // A plain search bounded by `to`: a regular expression would scan to the end of the file
  // for each name a use asks about whenever nothing matches before the use.
  for (
    let at = text.indexOf(name, Math.max(0, from - base));
    at >= 0 && at + base < to;
    at = text.indexOf(name, at + 1)
  ) {
    if (/[\w$.]/.test(text[at - 1] ?? '') || !ASSIGNS.test(text.slice(at + name.length, at + name.length + 8)))
      continue;
    const id = tree.rootNode.descendantForIndex(base + at);
    const a = id?.parent;
    if (id?.type === 'identifier' && a?.type === 'assignment_expression' && a.childForFieldName('left')?.equals(id))
      out.push(a);
  }
  return out;
}

/** What follows a name assigned to: `=`, not `==`, `===` or `=>` (spaces allowed before it). */
const ASSIGNS = /^\s*=(?![=>])/;

/** The function (or the module) whose code `n` runs in. */
function ownScope(n: Node): Node | null {
  let s = n.parent;
  while (s && !isFunction(s) && s.type !== 'program') s = s.parent;
  return s;
}

function inside(outer: Node, inner: Node): boolean {
  return outer.startIndex <= inner.startIndex && inner.endIndex <= outer.endIndex;
}

/** Whether a block between `a` and `root` that does not hold `use` declares its own `name` (`{ let pk = 1; pk = 2; }`). */
function shadowed(a: Node, root: Node, use: Node, name: string): boolean {
  for (let b = a.parent; b && b.id !== root.id; b = b.parent) {
    if (b.type !== 'statement_block' || inside(b, use)) continue;
    const declares = b.namedChildren.some(
      (s) =>
        s?.type === 'lexical_declaration' &&
        s.descendantsOfType('variable_declarator').some((d) => d?.childForFieldName('name')?.text === name),
    );
    if (declares) return true;
  }
  return false;
}

/**
 * Every binding of `id` that may reach it, when more than one may: the declaration
 * (or parameter) and the assignments in branches after it (`let pk = "A" + x;
 * if (c) { pk = "DEFAULT"; }`), or the assignments of an `if`/`else` after a bare
 * `let pk;`. In source order; null when one binding reaches (the one `resolve` gives),
 * which the caller may pass as `b`.
 */
export function reachingBindings(id: Node, b: Binding | null = findBinding(id)): Binding[] | null {
  const name = id.text;
  const root = ownScope(id);
  if (!root) return null;
  if (b?.kind === 'loop' || b?.kind === 'function') return null;
  // Assignments after the declaration `resolve` found (it is on the path to the use), before the use.
  const before = b?.kind !== 'value' || b.node.endIndex <= id.startIndex ? b : null;
  const from = Math.max(root.startIndex, before?.kind === 'value' ? before.node.endIndex : 0);
  const assignments = assignmentsOf(id.tree, name, from, id.startIndex).filter(
    (a) =>
      a.startIndex >= from &&
      a.endIndex <= id.startIndex &&
      ownScope(a)?.id === root.id &&
      !shadowed(a, root, id, name),
  );
  if (assignments.length === 0) return null;
  const r = reachingDefinitions(assignments, (a) => a, id);
  const found: Binding[] = r.reaching.flatMap((a): Binding[] => {
    const right = a.childForFieldName('right');
    return right ? [{ kind: 'value', node: right }] : [];
  });
  if (!r.complete && before) found.unshift(before);
  return found.length > 1 ? found : null;
}
