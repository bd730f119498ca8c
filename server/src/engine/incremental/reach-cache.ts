/**
 * An open document's reach (`FileReach`) kept edit by edit. Reading a file for reach
 * visits every function, call and loop of its tree; on a 3,000-line store that was
 * two thirds of analysing it after a one-character edit. The reading is kept node by
 * node (`ReachPiece`): an edit inside one function's body reads again only that function
 * (and the few functions and calls around it, whose reading may look at its text), the
 * pieces after it are moved, and the rest is kept. Anything else — an edit outside every
 * function body, several edits at once, a change to what the whole text decides (the
 * node types read, a mark anywhere in the file) — reads the whole file again, so the
 * result is always the one a whole reading gives (`reach-cache.test.ts` compares them).
 */
import { createHash } from 'node:crypto';
import type { Node, Range, Tree } from 'web-tree-sitter';
import { isTestFile } from '../file-roles/role';
import type { SourceLanguage, Span } from '../model';
import type { FileReach, ReachReading } from '../model/entry-point';
import { frontEndFor } from '../frontends/registry';
import { assemblePieces, nodesOfTypes, readPieces, type ReachPiece } from '../frontends/file-reach';
import { moveSpans } from '../syntax/positions';
import { shiftSpan, type EditRecord } from './site-cache';

export class ReachCache {
  private last: { file: string; mode: string; pieces: ReachPiece[] } | null = null;
  private edits: EditRecord[] = [];
  private changed: Range[] = [];
  /** How often the whole file was read, and how often one function of it: for the tests. */
  readonly reads = { whole: 0, part: 0 };

  /** An edit applied to the text (in order). */
  applyEdit(e: EditRecord): void {
    this.edits.push(e);
  }

  /** The ranges the reparse after the edits restructured (`tree.getChangedRanges`), in the new text. */
  changedRanges(ranges: readonly Range[]): void {
    this.changed.push(...ranges);
  }

  clear(): void {
    this.last = null;
    this.edits = [];
    this.changed = [];
  }

  /** The file's reach from its current tree and text, reading again only what the edits since the last call touched. */
  read(tree: Tree, file: string, language: SourceLanguage, text: string): FileReach {
    const frontEnd = frontEndFor(language);
    const test = isTestFile(file, text, frontEnd.contentRoles);
    const reading = frontEnd.reachReading(tree, file, { test, bin: false });
    let pieces = this.reuse(tree, file, reading);
    if (pieces) this.reads.part++;
    else {
      pieces = readPieces(nodesOfTypes(tree.rootNode, reading.types), reading);
      this.reads.whole++;
    }
    this.last = { file, mode: reading.mode, pieces };
    this.edits = [];
    this.changed = [];
    const textHash = createHash('sha1').update(text).digest('base64');
    return { ...assemblePieces(file, text, reading, pieces), textHash };
  }

  /** The pieces of the current tree from the last ones, or null when the whole file must be read. */
  private reuse(tree: Tree, file: string, reading: ReachReading): ReachPiece[] | null {
    const last = this.last;
    if (!last || last.file !== file || last.mode !== reading.mode) return null;
    if (this.edits.length === 0) return this.changed.length ? null : last.pieces;
    if (this.edits.length > 1) return null;
    const e = this.edits[0];
    const delta = e.inserted.length - (e.end - e.start);
    // What the edit wrote and what the reparse restructured, in the new text.
    let lo = e.start;
    let hi = e.start + e.inserted.length;
    for (const r of this.changed) {
      lo = Math.min(lo, r.startIndex);
      hi = Math.max(hi, r.endIndex);
    }
    const unit = innermostUnit(tree, reading, lo, hi);
    if (!unit) return null;
    // The function's range in the text before the edit: it starts before the edit and ends after it.
    const oldStart = unit.startIndex;
    const oldEnd = unit.endIndex - delta;
    const around: Node[] = [];
    for (let p = unit.parent; p; p = p.parent) if (reading.types.has(p.type)) around.unshift(p);
    const inside = unit.descendantsOfType([...reading.types]).filter((n): n is Node => !!n);
    const fresh = readPieces([...around, ...inside], reading);
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
