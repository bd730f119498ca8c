import type { Tree } from 'web-tree-sitter';
import type { Finding } from './model';

/** Line (0-based) → the rule codes ignored there; an empty set ignores every rule. */
export type Suppressions = Map<number, Set<string>>;

const DIRECTIVE = /shardlens-ignore(?:\s+((?:SL\d{3}[\s,]*)+))?/;

/**
 * `// shardlens-ignore SL001` or `# shardlens-ignore SL001` silences the named rules
 * (or, with no codes, all rules): on its own line, and, when the comment stands
 * alone on its line, on the line below.
 */
export function suppressions(tree: Tree, text: string): Suppressions {
  const out: Suppressions = new Map();
  for (let at = text.indexOf('shardlens-ignore'); at >= 0; at = text.indexOf('shardlens-ignore', at + 1)) {
    const n = tree.rootNode.descendantForIndex(at);
    if (n?.type !== 'comment') continue;
    const m = DIRECTIVE.exec(n.text);
    if (!m) continue;
    const codes = new Set(m[1] ? m[1].split(/[\s,]+/).filter(Boolean) : []);
    const lineStart = text.lastIndexOf('\n', n.startIndex - 1) + 1;
    const alone = text.slice(lineStart, n.startIndex).trim() === '';
    out.set(n.startPosition.row, codes);
    if (alone) out.set(n.endPosition.row + 1, codes);
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
