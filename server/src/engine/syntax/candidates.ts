import type { Node, Tree } from 'web-tree-sitter';
import type { CallSite } from '../model/call-site';
import type { OffsetMemo } from '../model/frontend';

/**
 * Finds the call nodes a front-end should look at without visiting every node of the
 * tree: a literal scan of the source finds where a method or class name that could
 * start a DynamoDB call is written, and the tree says whether a call really starts
 * there (a mention in a comment or a string is not one). Visiting every node of a
 * large file through the wasm boundary costs far more than this.
 */

/**
 * Where `pattern` (global, its named groups capturing the callee's name) finds a name
 * in [from, to): the name's offset. A part is scanned on its own only when it is a whole
 * run of match characters (`NameScan`): the characters either side of it, which `\b`
 * and look-behinds read, are then no name characters, as the ends of a string are not.
 */
function nameOffsets(text: string, pattern: RegExp, from = 0, to = text.length): number[] {
  const re = new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : pattern.flags + 'g');
  const part = from === 0 && to === text.length ? text : text.slice(from, to);
  const out: number[] = [];
  for (let m = re.exec(part); m; m = re.exec(part)) {
    // The pattern's named group (the first that matched) is the callee's name.
    const name = Object.values(m.groups ?? {}).find((g) => g !== undefined);
    out.push(from + m.index + (name ? m[0].lastIndexOf(name) : 0));
  }
  return out;
}

/**
 * Every character a match of a candidate pattern can hold (names, quotes, dots,
 * brackets, parentheses, white space): a match lies inside one run of them, so an
 * edit can change only the matches of the run it falls in, and a later scan reads
 * that run again instead of the whole text. (A pattern whose matches hold another
 * character must not be scanned through `NameScan`.)
 */
const MATCH_CHAR = /[\w$'"\s.[\]()]/;

/**
 * The candidate scan of one document kept across edits: the offsets of the last
 * scan, moved by each edit, and the ranges edits wrote (in the current text), which
 * the next scan reads again, each widened to the run of match characters around it.
 * On the 2,990-line bench file a whole scan is about a third of a re-analysis.
 */
export class NameScan implements OffsetMemo {
  /** The last scan: its pattern, what it found and the length of the text it read. */
  private kept: { pattern: string; offsets: number[]; length: number } | null = null;
  /** The ranges edits since the last scan wrote, in the current text. */
  private dirty: Array<[number, number]> = [];
  /** How much longer the text is than the one the last scan read. */
  private grown = 0;

  /** Text [start, end) of the text before the edit was replaced by `inserted` characters. */
  edit(start: number, end: number, inserted: number): void {
    const delta = inserted - (end - start);
    const move = (i: number, inside: number) => (i < start ? i : i >= end ? i + delta : inside);
    if (this.kept) this.kept.offsets = this.kept.offsets.filter((i) => i < start || i >= end).map((i) => move(i, i));
    this.dirty = this.dirty.map(([a, b]) => [move(a, start), move(b, start + inserted)]);
    this.dirty.push([start, start + inserted]);
    this.grown += delta;
  }

  clear(): void {
    this.kept = null;
    this.dirty = [];
    this.grown = 0;
  }

  /** The offsets `pattern` finds in `text`: what was kept, with the runs edits reached scanned again. */
  offsets(text: string, pattern: RegExp): number[] {
    const k = this.kept;
    let offsets: number[];
    // Kept from a scan with this pattern, moved by every edit since (the lengths agree): else a whole scan.
    if (!k || k.pattern !== pattern.source || k.length + this.grown !== text.length) {
      offsets = nameOffsets(text, pattern);
    } else {
      offsets = k.offsets;
      for (const [from, to] of runs(text, this.dirty)) {
        const rescanned = nameOffsets(text, pattern, from, to);
        offsets = [...offsets.filter((i) => i < from), ...rescanned, ...offsets.filter((i) => i >= to)];
      }
    }
    this.kept = { pattern: pattern.source, offsets, length: text.length };
    this.dirty = [];
    this.grown = 0;
    return offsets;
  }
}

/** Each range widened to the run of match characters around it, merged where they meet, in order. */
function runs(text: string, ranges: Array<[number, number]>): Array<[number, number]> {
  const isMatchChar = (i: number) => MATCH_CHAR.test(text[i]);
  const wide = ranges.map(([a, b]): [number, number] => {
    let from = Math.max(0, Math.min(a, text.length));
    let to = Math.max(from, Math.min(b, text.length));
    while (from > 0 && isMatchChar(from - 1)) from--;
    while (to < text.length && isMatchChar(to)) to++;
    return [from, to];
  });
  wide.sort((x, y) => x[0] - y[0]);
  const out: Array<[number, number]> = [];
  for (const r of wide) {
    const last = out[out.length - 1];
    if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else out.push(r);
  }
  return out;
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
export type KnownSite = (at: number) => { start: number; end: number; site: CallSite | null } | undefined;

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
  callSiteOf: (n: Node, at: number) => CallSite | null,
  known?: KnownSite,
  scan?: OffsetMemo,
): CallSite[] {
  const found = new Map<string, { start: number; site: CallSite | null }>();
  for (const at of scan ? scan.offsets(text, pattern) : nameOffsets(text, pattern)) {
    const kept = known?.(at);
    if (kept) {
      found.set(`${kept.start}:${kept.end}`, { start: kept.start, site: kept.site });
      continue;
    }
    const n = callAt(tree, at, callTypes);
    const key = n ? `${n.startIndex}:${n.endIndex}` : '';
    if (n && !found.has(key)) found.set(key, { start: n.startIndex, site: callSiteOf(n, at) });
  }
  return [...found.values()].sort((a, b) => a.start - b.start).flatMap((c) => (c.site ? [c.site] : []));
}
