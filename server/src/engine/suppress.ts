import type { Tree } from 'web-tree-sitter';
import type { Finding } from './model';
import { walk } from './span';

/** Line (0-based) → the rule codes ignored there; an empty set ignores every rule. */
export type Suppressions = Map<number, Set<string>>;

const DIRECTIVE = /shardlens-ignore(?:\s+((?:SL\d{3}[\s,]*)+))?/;

/**
 * `// shardlens-ignore SL001` or `# shardlens-ignore SL001` silences the named rules
 * (or, with no codes, all rules) on its own line and on the line below.
 */
export function suppressions(tree: Tree, text: string): Suppressions {
  const out: Suppressions = new Map();
  if (!text.includes('shardlens-ignore')) return out;
  for (const n of walk(tree.rootNode)) {
    if (n.type !== 'comment') continue;
    const m = DIRECTIVE.exec(n.text);
    if (!m) continue;
    const codes = new Set(m[1] ? m[1].split(/[\s,]+/).filter(Boolean) : []);
    for (const line of [n.startPosition.row, n.endPosition.row + 1]) out.set(line, codes);
  }
  return out;
}

export function isSuppressed(f: Finding, s: Suppressions): boolean {
  for (const line of [f.span.startLine, f.access.span.startLine]) {
    const codes = s.get(line);
    if (codes && (codes.size === 0 || codes.has(f.rule))) return true;
  }
  return false;
}
