/**
 * An open document's reach (`FileReach`) kept edit by edit. Reading a file for reach
 * visits every function, call and loop of its tree; on a 3,000-line store that was
 * two thirds of analysing it after a one-character edit. The reading is kept node by
 * node (`ReachPiece`), each with the text its reading looked at (its statement's scope,
 * `reach-scope.ts`). After edits, the regions of text they and the reparse changed
 * (`edit-regions.ts`) are read again: every node whose scope a region meets, and no other;
 * the pieces after a region are moved. An edit in a type declaration, a comment or between
 * functions reads nothing again; one in a function's signature reads the function's node and
 * the statement it is in, not its body. A change to what the whole text decides (the node
 * types read, a mark anywhere in the file) reads the whole file again, so the result is
 * always the one a whole reading gives (`reach-cache.test.ts` compares them).
 */
import { createHash } from 'node:crypto';
import { Edit, type Node, type Tree } from 'web-tree-sitter';
import { isTestFile, type ContentRole } from '../file-roles/role';
import type { SourceLanguage, Span } from '../model';
import type { FileReach, ReachPart, ReachReading } from '../model/entry-point';
import { frontEndFor } from '../frontends/registry';
import { assemblePieces, nodesOfTypes } from '../frontends/file-reach';
import { countWords, isWordChar } from '../frontends/word-counts';
import { moveSpans, pointAfter, pointAt } from '../syntax/positions';
import { shiftSpan, type EditRecord } from './site-cache';
import { addEdit, addRange, changedOnly, type Region } from './edit-regions';
import { meets, nodesMeeting, scopeOf, type Scope } from './reach-scope';

/**
 * What reading one node gave (`part`, never changed once read), with the node's offsets and the text
 * its reading looked at (`scopeOf`), in the same text. Moving a piece makes a new one of this one shape
 * around the same part: copying each part after a keystroke was a sixth of reading a 3,000-line file.
 */
interface ScopedPiece {
  part: ReachPart;
  start: number;
  end: number;
  scope: Scope;
}

interface LastReading {
  file: string;
  mode: string;
  pieces: ScopedPiece[];
  text: string;
  words: Map<string, number>;
  /** The tree read, with every edit since applied to it (`Tree.edit`): the reparse is compared with it. */
  tree: Tree;
}

export class ReachCache {
  private last: LastReading | null = null;
  private regions: Region[] = [];
  /**
   * How often the whole file was read, and how often only the nodes an edit may change
   * (`part`), with the pieces read again and kept in those: for the tests and the bench.
   */
  readonly reads = { whole: 0, part: 0, pieces: 0, kept: 0 };

  /** An edit applied to the text (in order, each in the coordinates of the text the one before left). */
  applyEdit(e: EditRecord): void {
    this.regions = addEdit(this.regions, e.start, e.end, e.inserted.length);
    this.last?.tree.edit(
      new Edit({
        startIndex: e.start,
        oldEndIndex: e.end,
        newEndIndex: e.start + e.inserted.length,
        startPosition: e.startPoint,
        oldEndPosition: e.oldEndPoint,
        newEndPosition: e.newEndPoint,
      }),
    );
  }

  clear(): void {
    this.last?.tree.delete();
    this.last = null;
    this.regions = [];
  }

  /**
   * The file's reach from its current tree and text, reading again only what the edits since
   * the last call touched. `role`: the text's content role, when the document keeps it edit by edit.
   */
  read(tree: Tree, file: string, language: SourceLanguage, text: string, role?: ContentRole): FileReach {
    const frontEnd = frontEndFor(language);
    const test = isTestFile(file, text, frontEnd.contentRoles, role);
    const last = this.last?.file === file ? this.last : null;
    // The text the edits changed, and where the reparse made another tree of the same text
    // than the one read last (compared with that tree, not with each reparse between: a quote
    // typed and deleted again restructures the rest of the file twice, and nothing in the end).
    let regions = last ? changedOnly(this.regions, last.text, text) : [];
    if (last) for (const r of last.tree.getChangedRanges(tree)) regions = addRange(regions, r.startIndex, r.endIndex);
    const words = last ? recount(last.words, last.text, text, regions) : countWords(text);
    // The marks the whole text decides are looked for only when a word they need is written.
    const reading = frontEnd.reachReading(tree, file, { test, bin: false }, words);
    let pieces = last && last.mode === reading.mode ? this.reuse(tree, file, last, text, reading, regions) : null;
    if (pieces) this.reads.part++;
    else {
      pieces = scoped(nodesOfTypes(tree.rootNode, reading.types), reading);
      this.reads.whole++;
    }
    last?.tree.delete();
    this.last = { file, mode: reading.mode, pieces, text, words, tree: tree.copy() };
    this.regions = [];
    const textHash = createHash('sha1').update(text).digest('base64');
    return {
      ...assemblePieces(
        file,
        text,
        reading,
        pieces.map((p) => p.part),
        words,
      ),
      textHash,
    };
  }

  /**
   * The pieces of the current tree from the last ones: those whose scope a region meets are
   * read again, with every node of the current tree whose scope one meets; the others are
   * kept, moved by the regions before them.
   */
  private reuse(
    tree: Tree,
    file: string,
    last: LastReading,
    text: string,
    reading: ReachReading,
    regions: readonly Region[],
  ): ScopedPiece[] {
    if (!regions.length) {
      this.reads.kept += last.pieces.length;
      return last.pieces;
    }
    const now = regions.map((r) => ({ start: r.newStart, end: r.newEnd }));
    const fresh = scoped(nodesMeeting(tree.rootNode, now, reading.types, reading.containers), reading);
    const then = regions.map((r) => ({ start: r.oldStart, end: r.oldEnd }));
    const kept: ScopedPiece[] = [];
    // The pieces are in document order, and a kept one lies between two regions: the edit
    // that moves it is every region before it, as one.
    let passed = 0;
    let move: ((p: ScopedPiece) => ScopedPiece) | null = null;
    for (const p of last.pieces) {
      if (meets(p.scope, then)) continue;
      let k = passed;
      while (k < regions.length && regions[k].oldEnd < p.start) k++;
      if (k !== passed) {
        passed = k;
        move = mover(regions.slice(0, k), last.text, text, file);
      }
      kept.push(move ? move(p) : p);
    }
    this.reads.pieces += fresh.length;
    this.reads.kept += kept.length;
    // In document order, as a whole reading lists them: by start, the outer node first.
    return [...kept, ...fresh].sort((a, b) => a.start - b.start || b.end - a.end);
  }
}

/** Each node read, with its offsets and scope (statements' scopes looked up once). */
function scoped(nodes: readonly Node[], reading: ReachReading): ScopedPiece[] {
  return nodes.map((n) => ({
    part: reading.read(n),
    start: n.startIndex,
    end: n.endIndex,
    scope: scopeOf(n, reading.containers),
  }));
}

/** What moves a piece after `regions` (the first ones of the text read last): all of them taken as one edit. */
function mover(regions: readonly Region[], before: string, now: string, file: string): (p: ScopedPiece) => ScopedPiece {
  const first = regions[0];
  const end = regions[regions.length - 1];
  const delta = end.newEnd - end.oldEnd;
  // The texts are the same up to the first region: its start is one point in both, unless a CR ends
  // that prefix (a lone CR ends a row, one before LF does not).
  const startPoint = pointAt(now, first.newStart);
  const startBefore = before.charCodeAt(first.oldStart - 1) === 13 ? pointAt(before, first.oldStart) : startPoint;
  const e: EditRecord = {
    start: first.oldStart,
    end: end.oldEnd,
    removed: before.slice(first.oldStart, end.oldEnd),
    inserted: now.slice(first.newStart, end.newEnd),
    startPoint,
    oldEndPoint: pointAfter(before, startBefore, first.oldStart, end.oldEnd),
    newEndPoint: pointAfter(now, startPoint, first.newStart, end.newEnd),
    names: new Set(),
    called: new Set(),
    scoped: [],
  };
  const rows = e.newEndPoint.row - e.oldEndPoint.row;
  const still = delta === 0 && rows === 0 && e.oldEndPoint.column === e.newEndPoint.column;
  return (p) => {
    if (still) return p;
    const start = p.start + delta;
    const end = p.end + delta;
    const scope = { start: p.scope.start + delta, end: p.scope.end + delta, row: p.scope.row + rows };
    // A piece on a later line than the edit's end, with no line added or removed, keeps its lines and columns.
    if (rows === 0 && p.scope.row > e.oldEndPoint.row) return { part: p.part, start, end, scope };
    return { part: movePart(p.part, e, file), start, end, scope };
  };
}

/**
 * The word counts of `now`, updated in place from those of `before`: only the words the regions touch are
 * counted again (a whole count of a 3,000-line file was a tenth of reading its reach).
 * Each region is widened to whole words on both sides, which are the same text in both;
 * regions that then meet are counted as one.
 */
function recount(words: Map<string, number>, before: string, now: string, regions: readonly Region[]) {
  const wide: Region[] = [];
  for (const r of regions) {
    let back = 0;
    while (r.oldStart - back > 0 && isWordChar(before.charCodeAt(r.oldStart - back - 1))) back++;
    let on = 0;
    while (r.oldEnd + on < before.length && isWordChar(before.charCodeAt(r.oldEnd + on))) on++;
    const w = {
      oldStart: r.oldStart - back,
      oldEnd: r.oldEnd + on,
      newStart: r.newStart - back,
      newEnd: r.newEnd + on,
    };
    const prior = wide[wide.length - 1];
    if (prior && prior.oldEnd >= w.oldStart) wide[wide.length - 1] = { ...prior, oldEnd: w.oldEnd, newEnd: w.newEnd };
    else wide.push(w);
  }
  for (const w of wide) {
    countWords(before, words, -1, w.oldStart, w.oldEnd);
    countWords(now, words, 1, w.newStart, w.newEnd);
  }
  return words;
}

/** What a node after the edit gave, moved by it: every span and line its items hold. */
function movePart(part: ReachPart, e: EditRecord, file: string): ReachPart {
  const moved = moveSpans(part, (s: Span) => shiftSpan(s, e), file);
  // An entry point's `line` is its source's first line.
  return {
    ...moved,
    entries: moved.entries.map((s) =>
      s.entry.line === s.entry.source.span.startLine
        ? s
        : { ...s, entry: { ...s.entry, line: s.entry.source.span.startLine } },
    ),
  };
}
