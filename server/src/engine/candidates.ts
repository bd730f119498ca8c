import type { Node, Tree } from 'web-tree-sitter';
import type { CallSite } from './model/call-site';

/**
 * Finds the call nodes a front-end should look at without visiting every node of the
 * tree: a literal scan of the source finds where a method or class name that could
 * start a DynamoDB call is written, and the tree says whether a call really starts
 * there (a mention in a comment or a string is not one). Visiting every node of a
 * large file through the wasm boundary costs far more than this.
 */

/** Where `pattern` (global, its named groups capturing the callee's name) finds a name: the name's offset. */
function* nameOffsets(text: string, pattern: RegExp): Generator<number> {
  const re = new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : pattern.flags + 'g');
  for (let m = re.exec(text); m; m = re.exec(text)) {
    // The pattern's named group (the first that matched) is the callee's name.
    const name = Object.values(m.groups ?? {}).find((g) => g !== undefined);
    yield m.index + (name ? m[0].lastIndexOf(name) : 0);
  }
}

/** The call a name at `at` starts: climbing from the name, at most a few levels (name → member → call). */
function callAt(tree: Tree, at: number, callTypes: ReadonlySet<string>): Node | null {
  let n: Node | null = tree.rootNode.descendantForIndex(at);
  for (let i = 0; n && i < 4 && !callTypes.has(n.type); i++) n = n.parent;
  return n && callTypes.has(n.type) ? n : null;
}

export function candidateCalls(tree: Tree, text: string, pattern: RegExp, callTypes: ReadonlySet<string>): Node[] {
  const found = new Map<number, Node>();
  for (const at of nameOffsets(text, pattern)) {
    const n = callAt(tree, at, callTypes);
    if (n) found.set(n.id, n);
  }
  return [...found.values()].sort((a, b) => a.startIndex - b.startIndex);
}

/** A site kept from an earlier version of the document, with its call's extent. */
export type KnownSite = (at: number) => { start: number; end: number; site: CallSite } | undefined;

/**
 * The sites at the candidate calls, in the order of the calls. A site `known` keeps
 * for the name at a match is taken as it is, without asking the tree where its call
 * is: in an edited document most sites are kept, and a lookup per call through wasm
 * was a quarter of a re-analysis of the 2,990-line bench file.
 */
export function candidateSites(
  tree: Tree,
  text: string,
  pattern: RegExp,
  callTypes: ReadonlySet<string>,
  siteOf: (n: Node, at: number) => CallSite | null,
  known?: KnownSite,
): CallSite[] {
  const found = new Map<string, { start: number; site: CallSite | null }>();
  for (const at of nameOffsets(text, pattern)) {
    const kept = known?.(at);
    if (kept) {
      found.set(`${kept.start}:${kept.end}`, { start: kept.start, site: kept.site });
      continue;
    }
    const n = callAt(tree, at, callTypes);
    const key = n ? `${n.startIndex}:${n.endIndex}` : '';
    if (n && !found.has(key)) found.set(key, { start: n.startIndex, site: siteOf(n, at) });
  }
  return [...found.values()].sort((a, b) => a.start - b.start).flatMap((c) => (c.site ? [c.site] : []));
}
