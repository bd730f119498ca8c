/**
 * An open document's reach (`FileReach`) kept edit by edit. Reading a file for reach
 * visits every function, call and loop of its tree; on a 3,000-line store that was
 * two thirds of analysing it after a one-character edit. The reading is kept node by
 * node (`ReachPiece`): an edit inside one function's body reads again only that function
 * (and the few functions and calls around it, whose reading may look at its text), the
 * pieces after it are moved, and the rest is kept. Several edits since the last reading
 * count as one edit of the region they changed. Anything else — a region outside every
 * function body, a change to what the whole text decides (the node types read, a mark
 * anywhere in the file) — reads the whole file again, so the result is always the one a
 * whole reading gives (`reach-cache.test.ts` compares them).
 */
import { createHash } from 'node:crypto';
import type { Node, Range, Tree } from 'web-tree-sitter';
import { isTestFile } from '../file-roles/role';
import type { SourceLanguage, Span } from '../model';
import type { FileReach, ReachReading } from '../model/entry-point';
import { frontEndFor } from '../frontends/registry';
import {
  assemblePieces,
  countWords,
  isWordChar,
  nodesOfTypes,
  readPieces,
  type ReachPiece,
} from '../frontends/file-reach';
import { moveSpans, pointAt } from '../syntax/positions';
import { shiftSpan, type EditRecord } from './site-cache';

/**
 * What the edits since the last reading changed, as one edit: [start, oldEnd) of the text
 * read then is [start, newEnd) of the text now, and everything around it is the same text
 * (moved by newEnd - oldEnd after it). Each edit and each range a reparse restructured widens it.
 */
interface Region {
  start: number;
  oldEnd: number;
  newEnd: number;
}

/** The region widened to hold [from, to) of the current text. */
function widen(r: Region | null, from: number, to: number): Region {
  if (!r) return { start: from, oldEnd: to, newEnd: to };
  const past = Math.max(0, to - r.newEnd);
  return { start: Math.min(r.start, from), oldEnd: r.oldEnd + past, newEnd: r.newEnd + past };
}

export class ReachCache {
  private last: { file: string; mode: string; pieces: ReachPiece[]; text: string; words: Map<string, number> } | null =
    null;
  private region: Region | null = null;
  /** How often the whole file was read, and how often one function of it: for the tests. */
  readonly reads = { whole: 0, part: 0 };

  /** An edit applied to the text (in order, each in the coordinates of the text the one before left). */
  applyEdit(e: EditRecord): void {
    const r = widen(this.region, e.start, e.end);
    this.region = { ...r, newEnd: r.newEnd + e.inserted.length - (e.end - e.start) };
  }

  /** The ranges the reparse after the edits restructured (`tree.getChangedRanges`), in the new text. */
  changedRanges(ranges: readonly Range[]): void {
    for (const r of ranges) this.region = widen(this.region, r.startIndex, r.endIndex);
  }

  clear(): void {
    this.last = null;
    this.region = null;
  }

  /** The file's reach from its current tree and text, reading again only what the edits since the last call touched. */
  read(tree: Tree, file: string, language: SourceLanguage, text: string): FileReach {
    const frontEnd = frontEndFor(language);
    const test = isTestFile(file, text, frontEnd.contentRoles);
    const reading = frontEnd.reachReading(tree, file, { test, bin: false });
    const last = this.last?.file === file ? this.last : null;
    let pieces = last && last.mode === reading.mode ? this.reuse(tree, file, last, text, reading) : null;
    if (pieces) this.reads.part++;
    else {
      pieces = readPieces(nodesOfTypes(tree.rootNode, reading.types), reading);
      this.reads.whole++;
    }
    const words = last ? recount(last.words, last.text, text, this.region) : countWords(text);
    this.last = { file, mode: reading.mode, pieces, text, words };
    this.region = null;
    const textHash = createHash('sha1').update(text).digest('base64');
    return { ...assemblePieces(file, text, reading, pieces, words), textHash };
  }

  /** The pieces of the current tree from the last ones, or null when the whole file must be read. */
  private reuse(
    tree: Tree,
    file: string,
    last: { pieces: ReachPiece[]; text: string },
    text: string,
    reading: ReachReading,
  ): ReachPiece[] | null {
    const r = this.region;
    if (!r) return last.pieces;
    const delta = r.newEnd - r.oldEnd;
    const unit = innermostUnit(tree, reading, r.start, r.newEnd);
    if (!unit) return null;
    // The function's range in the text before the edit: it starts before the edit and ends after it.
    const oldStart = unit.startIndex;
    const oldEnd = unit.endIndex - delta;
    const around: Node[] = [];
    for (let p = unit.parent; p; p = p.parent) if (reading.types.has(p.type)) around.unshift(p);
    const inside = unit.descendantsOfType([...reading.types]).filter((n): n is Node => !!n);
    const fresh = readPieces([...around, ...inside], reading);
    const e = asEdit(r, last.text, text);
    const kept: ReachPiece[] = [];
    for (const p of last.pieces) {
      if (p.start >= oldStart && p.end <= oldEnd) continue;
      if (p.start <= oldStart && p.end >= oldEnd) continue;
      kept.push(p.start >= oldEnd ? movePiece(p, e, delta, file) : p);
    }
    // In document order, as a whole reading lists them: by start, the outer node first.
    return [...kept, ...fresh].sort((a, b) => a.start - b.start || b.end - a.end);
  }
}

/** The region as one edit of the text read last, for moving the positions after it. */
function asEdit(r: Region, before: string, now: string): EditRecord {
  return {
    start: r.start,
    end: r.oldEnd,
    removed: before.slice(r.start, r.oldEnd),
    inserted: now.slice(r.start, r.newEnd),
    startPoint: pointAt(now, r.start),
    oldEndPoint: pointAt(before, r.oldEnd),
    newEndPoint: pointAt(now, r.newEnd),
    names: new Set(),
    called: new Set(),
    scoped: [],
  };
}

/**
 * The word counts of `now`, updated in place from those of `before`: only the words the region touches are
 * counted again (a whole count of a 3,000-line file was a tenth of reading its reach).
 * The region is widened to whole words on both sides, which are the same text in both.
 */
function recount(words: Map<string, number>, before: string, now: string, r: Region | null): Map<string, number> {
  if (!r) return words;
  let from = r.start;
  while (from > 0 && isWordChar(before.charCodeAt(from - 1))) from--;
  let to = r.oldEnd;
  while (to < before.length && isWordChar(before.charCodeAt(to))) to++;
  countWords(before, words, -1, from, to);
  return countWords(now, words, 1, from, to + r.newEnd - r.oldEnd);
}

/**
 * The innermost function whose body holds [lo, hi] strictly inside (not at its edges,
 * where an edit may join the body to what follows), or null.
 */
function innermostUnit(tree: Tree, reading: ReachReading, lo: number, hi: number): Node | null {
  for (let n: Node | null = tree.rootNode.descendantForIndex(lo, hi); n; n = n.parent) {
    if (!reading.types.has(n.type)) continue;
    const body = reading.bodyOf(n);
    if (body && body.startIndex < lo && hi < body.endIndex) return n;
  }
  return null;
}

/** A piece after the edit, moved by it: its offsets, and every span and line its items hold. */
function movePiece(p: ReachPiece, e: EditRecord, delta: number, file: string): ReachPiece {
  const move = (s: Span) => shiftSpan(s, e);
  const moved = moveSpans({ ...p, start: p.start + delta, end: p.end + delta }, move, file);
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
