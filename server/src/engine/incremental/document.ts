import { frontEndFor } from '../frontends/registry';
import { Edit, type Tree } from 'web-tree-sitter';
import {
  analyzeTree,
  completeAnalysis,
  extractTree,
  worthParsing,
  emptyAnalysis,
  DEFAULT_BUDGET_MS,
  DEFAULT_MAX_BYTES,
  type AnalyzeOptions,
  type FileAnalysis,
} from '../analyze';
import type { SourceLanguage } from '../model';
import { parse, parsedWhole, ParseTimeout } from '../syntax/parser';
import { pointAfter, pointAt } from '../syntax/positions';
import { RoleWatch } from '../file-roles/role-watch';
import { SiteCache } from './site-cache';
import { ReachCache } from './reach-cache';
import { reasonToSkip } from '../syntax/prescan';
import { blockIn, editNames, mergeNames, type EditNames } from './edit-names';

/** A text edit by UTF-16 offsets into the text before the edit. */
export interface TextEdit {
  start: number;
  end: number;
  text: string;
}

/**
 * An edit cut to the text: integer offsets in [0, length], start before end. The
 * language server orders and clamps ranges before they get here; this keeps any other
 * caller's stray edit from duplicating text (a start after the end) or desynchronising
 * the tree (an offset past the end), at the cost of two comparisons.
 */
function inText(e: TextEdit, length: number): TextEdit {
  const at = (n: number) => Math.min(Math.max(Math.trunc(n) || 0, 0), length);
  const start = at(e.start);
  const end = at(e.end);
  if (start === e.start && end === e.end && start <= end) return e;
  return { start: Math.min(start, end), end: Math.max(start, end), text: e.text };
}

/**
 * The edit widened to take in a CR just before it: whether that CR ends a row (a lone
 * CR) depends on the character after it, which the edit may change (`\r|x` → `\r|\n`),
 * and tree-sitter must be told every character of its text that changes.
 */
function withCrBefore(e: TextEdit, text: string): TextEdit {
  return e.start > 0 && text.charCodeAt(e.start - 1) === 13
    ? { start: e.start - 1, end: e.end, text: '\r' + e.text }
    : e;
}

/** The whole lines of `text` that the range [start, end] touches, and the offset of the first. */
function linesAround(text: string, start: number, end: number): { lines: string; from: number } {
  const from = text.lastIndexOf('\n', start - 1) + 1;
  const to = text.indexOf('\n', end);
  return { lines: text.slice(from, to < 0 ? text.length : to), from };
}

/**
 * Block ranges read in the text after an edit, moved to the text before it: offsets
 * after the inserted text shift back, and one inside it becomes the edit's own end.
 */
function inOldCoordinates(n: EditNames, e: TextEdit, newEnd: number): EditNames {
  const delta = newEnd - e.end;
  const back = (i: number, inside: number) => (i <= e.start ? i : i >= newEnd ? i - delta : inside);
  return {
    names: n.names,
    called: n.called,
    scoped: n.scoped.map((s) => ({ ...s, start: back(s.start, e.start), end: back(s.end, e.end) })),
  };
}

/**
 * An open document that keeps its syntax tree between edits: each edit is applied to
 * the tree (`tree.edit`) and the reparse reuses every unchanged subtree.
 */
export class AnalyzedDocument {
  private tree: Tree | null = null;
  /** The tree was parsed from text with awaited generic calls rewritten (`parser.ts`): not reused. */
  private treeRewritten = false;
  private current: FileAnalysis;
  /** The text changed since it was last extracted. */
  private stale = true;
  /** The current text's extraction (`extract`), waiting for its reach and findings (`refresh`). */
  private extracted: FileAnalysis | null = null;
  readonly sites = new SiteCache();
  /** The file's reach, read again only in the function an edit was in. */
  readonly reach = new ReachCache();
  /** The text's content role, kept across edits instead of read from the whole text each time. */
  private readonly roles: RoleWatch;

  constructor(
    readonly file: string,
    readonly language: SourceLanguage,
    private text: string,
    private readonly options: AnalyzeOptions = {},
  ) {
    this.roles = new RoleWatch(frontEndFor(language).contentRoles);
    this.current = emptyAnalysis(file, language, null);
    this.refresh();
  }

  get analysis(): FileAnalysis {
    return this.current;
  }

  get content(): string {
    return this.text;
  }

  /**
   * Applies edits in order (each against the text left by the previous one) to the
   * text and the tree. With `analyze` false the reparse waits for `refresh()`, so an
   * editor can apply every keystroke at once and analyse after a pause in typing.
   */
  applyEdits(edits: TextEdit[], analyze = true): FileAnalysis {
    for (const given of edits) {
      const e = withCrBefore(inText(given, this.text.length), this.text);
      const startPosition = pointAt(this.text, e.start);
      const oldEndPosition = pointAfter(this.text, startPosition, e.start, e.end);
      // Names on the lines before the edit, read against the tree before it...
      const old = linesAround(this.text, e.start, e.end);
      const names = editNames(old.lines, old.from, blockIn(this.tree));
      const removed = this.text.slice(e.start, e.end);
      this.text = this.text.slice(0, e.start) + e.text + this.text.slice(e.end);
      this.roles.edit(e.start, e.end, e.text.length, this.text);
      const newEnd = e.start + e.text.length;
      // The text before the edit is unchanged, and no edit starts right after a CR (`withCrBefore`).
      const newEndPosition = pointAfter(this.text, startPosition, e.start, newEnd);
      this.tree?.edit(
        new Edit({
          startIndex: e.start,
          oldEndIndex: e.end,
          newEndIndex: newEnd,
          startPosition,
          oldEndPosition,
          newEndPosition,
        }),
      );
      // ...and after it, against the edited tree, with blocks put back in the coordinates
      // before the edit (the cache's). A declaration the edit moves out of a block is
      // caught after the reparse: the restructured ranges are checked in both trees.
      const now = linesAround(this.text, e.start, newEnd);
      mergeNames(names, inOldCoordinates(editNames(now.lines, now.from, blockIn(this.tree)), e, newEnd));
      const record = {
        start: e.start,
        end: e.end,
        removed,
        inserted: e.text,
        startPoint: startPosition,
        oldEndPoint: oldEndPosition,
        newEndPoint: newEndPosition,
        names: names.names,
        called: names.called,
        scoped: names.scoped,
      };
      this.sites.applyEdit(record);
      this.reach.applyEdit(record);
    }
    this.stale = true;
    return analyze ? this.refresh() : this.current;
  }

  /** Reparses (incrementally) and analyses the current text if it changed. */
  refresh(): FileAnalysis {
    this.extract();
    if (this.extracted) {
      this.current = this.complete(this.extracted);
      this.extracted = null;
    }
    return this.current;
  }

  /**
   * The current text's calls and accesses, reparsed and extracted as `refresh` does, but
   * without the file's reach and findings, which `refresh` adds later from the same
   * tree: what a hover needs while the user types (reading reach was half the work).
   */
  extract(): FileAnalysis {
    if (this.stale) {
      this.stale = false;
      this.extracted = null;
      const extracted = this.extractNow();
      if (extracted) this.extracted = extracted;
    }
    return this.extracted ?? this.current;
  }

  /**
   * Replaces the whole text (a full-document sync); the next parse starts afresh. With
   * `analyze` false the analysis waits for `refresh()`, as for `applyEdits`.
   */
  setText(text: string, analyze = true): FileAnalysis {
    this.text = text;
    this.tree?.delete();
    this.tree = null;
    this.sites.clear();
    this.reach.clear();
    this.stale = true;
    return analyze ? this.refresh() : this.current;
  }

  /**
   * The syntax tree of `text` when it is this document's text and the tree has been
   * reparsed since its last edit (else null): the fixes read the open file's tree
   * instead of parsing the whole file again. Borrowed: valid until the next edit.
   */
  treeFor(text: string): Tree | null {
    return !this.stale && this.tree && this.text === text ? this.tree : null;
  }

  /** The current tree analysed with no call site reused: what the cache must agree with. */
  analyzeWithoutReuse(): FileAnalysis {
    return this.tree ? analyzeTree(this.tree, this.file, this.language, this.text, this.options) : this.current;
  }

  dispose(): void {
    this.tree?.delete();
    this.tree = null;
    this.sites.clear();
    this.reach.clear();
  }

  /**
   * Reparses the text and extracts its calls; null when the text is not analysed (too
   * big, not worth parsing, the parse failed): `current` then says so already.
   */
  private extractNow(): FileAnalysis | null {
    const none = (skipped: string | null) => {
      this.current = emptyAnalysis(this.file, this.language, skipped);
      return null;
    };
    const skip = reasonToSkip(this.text, this.options.maxBytes ?? DEFAULT_MAX_BYTES);
    // A file naming no SDK may still call a wrapper module it imports.
    if (skip || !worthParsing(this.text, this.language, this.options)) {
      this.dispose();
      return none(skip);
    }
    try {
      // Text parsed with awaited generic calls rewritten (`parser.ts`), before or now: parsed whole.
      const rewritten = parsedWhole(this.language, this.text);
      const old = this.treeRewritten || rewritten ? undefined : (this.tree ?? undefined);
      const next = parse(this.language, this.text, this.options.budgetMs ?? DEFAULT_BUDGET_MS, old);
      this.treeRewritten = rewritten;
      // A tree parsed afresh has no ranges to compare with the old one: nothing cached is kept.
      if (this.tree && !old) {
        this.sites.clear();
        this.reach.clear();
      }
      // Error recovery can restructure code away from the edit: drop sites that lie there.
      else if (this.tree) {
        const changed = this.tree.getChangedRanges(next);
        // A declaration can appear or vanish there too: names written in those ranges count
        // as re-bound, unless declared in one function's body before and after the reparse.
        const blocks = blockIn(this.tree, next);
        const names: EditNames = { names: new Set(), called: new Set(), scoped: [] };
        for (const r of changed) {
          const { lines, from } = linesAround(this.text, r.startIndex, r.endIndex);
          mergeNames(names, editNames(lines, from, blocks));
        }
        this.sites.invalidateRanges(changed, names);
      }
      this.tree?.delete();
      this.tree = next;
    } catch (e) {
      this.dispose();
      return none(e instanceof ParseTimeout ? e.message : `parser failed: ${String(e)}`);
    }
    return extractTree(this.tree, this.file, this.language, this.text, this.cached());
  }

  /** The reach and findings of the current text's extraction. */
  private complete(extracted: FileAnalysis): FileAnalysis {
    if (extracted.skipped || !this.tree) return extracted;
    return completeAnalysis(extracted, this.tree, this.text, this.cached());
  }

  private cached(): AnalyzeOptions {
    return {
      ...this.options,
      siteCache: this.sites,
      reachCache: this.reach,
      contentRole: this.roles.roleOf(this.text),
    };
  }
}
