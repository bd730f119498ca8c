import type { Node, Tree } from 'web-tree-sitter';

/**
 * The names an edit may re-bind, read from the lines it touched, for the site cache
 * (site-cache.ts) to decide which cached call sites the edit can change.
 */

/** A `const`/`let`/`var` written inside a block: seen only by uses inside that block. */
export interface ScopedName {
  name: string;
  /** The block's range (its braces), in the coordinates of the text the names were read from. */
  start: number;
  end: number;
}

export interface EditNames {
  /** Names that may be re-bound anywhere in the file. */
  names: Set<string>;
  /**
   * Names only called on those lines (`f(...)`): a new call feeds f's parameters, so it
   * matters only to a site that read them (`Deps.callers`), not to every site that
   * resolved `f` as the function it calls.
   */
  called: Set<string>;
  /** Names declared inside a block: they can change only what was resolved inside it. */
  scoped: ScopedName[];
}

/** The block holding a line ([start, end] offsets), or null at module level or when unsure. */
export type BlockOf = (start: number, end: number) => { start: number; end: number } | null;

const IDENT = /[A-Za-z_$][A-Za-z0-9_$]*/g;
/** A whole line that is only a function's header: `export async function f(a: T): R {`, `def f(a):`. */
const FUNCTION_HEADER =
  /^\s*(?:export\s+)?(?:default\s+)?(?:async\s+)?function\*?\s+([A-Za-z_$][\w$]*)\s*(?:<[^>()]*>)?\([^()]*\)\s*(?::\s*[^{}=()]+)?\{?\s*$|^\s*(?:async\s+)?def\s+([A-Za-z_]\w*)\s*\([^()]*\)\s*(?:->\s*[^:]+)?:\s*$/;
/**
 * Lines that bind names in ways too varied to pick out: parameters, imports, loops. An
 * arrow function's line is not one: its parameters bind only inside it, and a site
 * there, or one that consulted it, is dropped by the range the edit touches (as for a
 * function header's parameters); what else the line binds, `BOUND` reads.
 */
const BINDS_MANY = /\bfunction\b|\bdef\b|\blambda\b|\bimport\b|\bfor\b|\bclass\b|\bwith\b|\bexcept\b|\bcatch\b/;
/** Declared, assigned, called, or bare in a list (`f(x)`, `[a, b] = ...`; not a computed key `[NAME]: v`). */
const BOUND =
  /\b(?:const|let|var|as|global|nonlocal)\s+([A-Za-z_$][\w$]*)|([A-Za-z_$][\w$]*)\s*(?:[-+*/%|&^]|\*\*|\/\/|<<|>>)?=(?![=>])|([A-Za-z_$][\w$]*)(?=\s*\()|(?<=[(,[]\s*)([A-Za-z_$][\w$]*)(?=\s*[,)\]])(?!\s*\]\s*:)/g;
/** The declarations a block confines (not `global`, `nonlocal` or `as`). */
const DECLARES = /^(?:const|let|var)\s/;
/**
 * A line ending in a keyword that binds the next name: `function` and `class` may name
 * their declaration on the next line (valid JS), and a parser's error recovery reads
 * `def` at a line's end with the call on the next line as a definition of that name.
 * (When the keyword is typed on a line of its own, the reparse's changed ranges hold
 * the next line, and they are read too: document.ts.)
 */
const BINDS_NEXT_LINE = /\b(?:function\*?|def|class|const|let|var)\s*$/;

/**
 * The names an edit could re-bind, from the lines it touched (`text`, at offset `from`
 * of the document): declared or assigned names, called names (a new caller feeds a
 * parameter) and names passed bare as arguments (`xs.map(f)`). A `const`/`let`/`var`
 * on a line `blockOf` places inside a block is scoped to that block, so typing on a
 * line `const out = ...` in one function leaves the other functions' `out` alone.
 */
export function editNames(text: string, from = 0, blockOf: BlockOf = () => null): EditNames {
  const names = new Set<string>();
  const called = new Set<string>();
  const scoped: ScopedName[] = [];
  let at = from;
  let bindsNext = false;
  for (const line of text.split('\n')) {
    const lineStart = at;
    at += line.length + 1;
    if (bindsNext) for (const name of line.match(IDENT) ?? []) names.add(name);
    bindsNext = BINDS_NEXT_LINE.test(line);
    const header = FUNCTION_HEADER.exec(line);
    if (header) {
      // Parameters bind only inside the function, whose own sites the edit re-evaluates anyway.
      names.add(header[1] ?? header[2]);
      continue;
    }
    if (BINDS_MANY.test(line)) {
      for (const name of line.match(IDENT) ?? []) names.add(name);
      continue;
    }
    let block: ReturnType<BlockOf> | undefined;
    for (const m of line.matchAll(BOUND)) {
      const name = m[1] ?? m[2] ?? m[3] ?? m[4];
      if (!name) continue;
      if (m[1] && DECLARES.test(m[0]) && (block ??= blockOf(lineStart, lineStart + line.length)))
        scoped.push({ name, ...block });
      else if (m[3]) called.add(name);
      else names.add(name);
    }
  }
  return { names, called, scoped };
}

/**
 * The innermost `{ ... }` block (a function's body, an `if`'s, a loop's) holding the
 * range strictly inside its braces, or null at module level. The evaluators resolve a
 * name by walking out through the blocks around its use (js/scope.ts), so a
 * declaration there is seen by no use outside.
 */
function blockAround(tree: Tree, start: number, end: number): { start: number; end: number } | null {
  for (let n: Node | null = tree.rootNode.descendantForIndex(start, end); n; n = n.parent) {
    if (n.type === 'statement_block' && n.startIndex < start && end < n.endIndex)
      return { start: n.startIndex, end: n.endIndex };
  }
  return null;
}

/**
 * The block of a line in every tree given (trees of one text, or an edited tree and
 * its reparse): only when it is the same block in each, as error recovery can move
 * statements out of blocks. Null when a tree is missing.
 */
export function blockIn(...trees: Array<Tree | null>): BlockOf {
  return (start, end) => {
    let found: { start: number; end: number } | null = null;
    for (const tree of trees) {
      const here = tree ? blockAround(tree, start, end) : null;
      if (!here || (found && (here.start !== found.start || here.end !== found.end))) return null;
      found = here;
    }
    return found;
  };
}

/** Both sets of names together. */
export function mergeNames(into: EditNames, more: EditNames): EditNames {
  for (const n of more.names) into.names.add(n);
  for (const n of more.called) into.called.add(n);
  into.scoped.push(...more.scoped);
  return into;
}
