import type { Tree } from 'web-tree-sitter';
import type { Finding } from '../model';

/** Line (0-based) → the rule codes ignored there; an empty set ignores every rule. */
export type Suppressions = Map<number, Set<string>>;

// `-next-line` as ESLint writes it: without it in the pattern, `shardlens-ignore-next-line SL001`
// read as a bare `shardlens-ignore` and silenced every rule. Any other suffix is no directive.
const DIRECTIVE = /shardlens-ignore(-next-line)?(?![\w-])(?:\s+((?:SL\d{3}[\s,]*)+))?/;

/**
 * `// shardlens-ignore SL001` or `# shardlens-ignore SL001` silences the named rules
 * (or, with no codes, all rules): on its own line, and, when the comment stands
 * alone on its line, on the line below. `shardlens-ignore-next-line SL001` silences the
 * line below only.
 */
export function suppressions(tree: Tree, text: string): Suppressions {
  const out: Suppressions = new Map();
  for (let at = text.indexOf('shardlens-ignore'); at >= 0; at = text.indexOf('shardlens-ignore', at + 1)) {
    const n = tree.rootNode.descendantForIndex(at);
    if (n?.type !== 'comment') continue;
    const m = DIRECTIVE.exec(n.text);
    if (!m) continue;
    const codes = codesOf(m);
    const lineStart = text.lastIndexOf('\n', n.startIndex - 1) + 1;
    const alone = text.slice(lineStart, n.startIndex).trim() === '';
    if (!m[1]) out.set(n.startPosition.row, codes);
    if (alone || m[1]) out.set(n.endPosition.row + 1, codes);
  }
  return out;
}

/**
 * The same directives read from comments found without a syntax tree (an
 * infrastructure file's YAML or HCL comments: `frontends/infra/comments.ts`), each given
 * by its offset in `text`.
 */
export function commentSuppressions(text: string, comments: Array<{ start: number; text: string }>): Suppressions {
  const out: Suppressions = new Map();
  for (const c of comments) {
    const m = DIRECTIVE.exec(c.text);
    if (!m) continue;
    const codes = codesOf(m);
    const lineStart = text.lastIndexOf('\n', c.start - 1) + 1;
    const alone = text.slice(lineStart, c.start).trim() === '';
    if (!m[1]) out.set(lineOf(text, c.start), codes);
    if (alone || m[1]) out.set(lineOf(text, c.start + c.text.length) + 1, codes);
  }
  return out;
}

/** The rule codes a directive names; none silences every rule. */
function codesOf(m: RegExpExecArray): Set<string> {
  return new Set(m[2] ? m[2].split(/[\s,]+/).filter(Boolean) : []);
}

function lineOf(text: string, offset: number): number {
  let line = 0;
  for (let at = text.indexOf('\n'); at >= 0 && at < offset; at = text.indexOf('\n', at + 1)) line++;
  return line;
}

/**
 * Whether a comment on one of `lines` (or alone on the line above one) silences `f`: a
 * finding on a table definition, whose access is in another file, is silenced where the
 * definition starts.
 */
export function isSuppressedAt(f: Finding, s: Suppressions, lines: number[], used?: Set<string>): boolean {
  for (const line of lines) {
    const codes = s.get(line);
    if (!codes || (codes.size > 0 && !codes.has(f.rule))) continue;
    used?.add(`${line}:${f.rule}`);
    return true;
  }
  return false;
}

/**
 * Whether a comment silences `f`. `used` collects `line:rule` for each line whose
 * comment did, so that comments silencing nothing can be reported.
 */
export function isSuppressed(f: Finding, s: Suppressions, used?: Set<string>): boolean {
  for (const line of [f.span.startLine, f.access.span.startLine]) {
    const codes = s.get(line);
    if (codes && (codes.size === 0 || codes.has(f.rule))) {
      used?.add(`${line}:${f.rule}`);
      return true;
    }
  }
  return false;
}

/** A `shardlens-ignore` comment that silences nothing (or a code of it that does not). */
export interface UnusedIgnore {
  /** 0-based line of the comment. */
  line: number;
  /** The codes that silence nothing; empty for a comment without codes. */
  codes: string[];
}

/**
 * The comments of `ignores` that silenced none of `used`. A comment's line is one whose
 * text holds the directive; alone on its line it also covers the line below.
 */
export function unusedIgnores(ignores: Array<[number, string[]]>, used: Set<string>, text: string): UnusedIgnore[] {
  const lines = text.split('\n');
  const covered = new Map(ignores);
  const out: UnusedIgnore[] = [];
  for (const [line, codes] of ignores) {
    if (!lines[line]?.includes('shardlens-ignore')) continue;
    const below = covered.has(line + 1) && !lines[line + 1]?.includes('shardlens-ignore') ? [line + 1] : [];
    const silenced = (code: string | null) =>
      [line, ...below].some((l) => [...used].some((u) => u.startsWith(`${l}:`) && (!code || u === `${l}:${code}`)));
    if (codes.length === 0) {
      if (!silenced(null)) out.push({ line, codes: [] });
    } else {
      const idle = codes.filter((c) => !silenced(c));
      if (idle.length) out.push({ line, codes: idle });
    }
  }
  return out;
}
