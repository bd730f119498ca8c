import { Edit, type Point, type Tree } from 'web-tree-sitter';
import {
  analyzeTree,
  emptyAnalysis,
  DEFAULT_BUDGET_MS,
  DEFAULT_MAX_BYTES,
  type AnalyzeOptions,
  type FileAnalysis,
} from './analyze';
import type { SourceLanguage } from './model';
import { parse, ParseTimeout } from './parser';
import { SiteCache } from './site-cache';
import { mayContainDynamoDbCalls, reasonToSkip } from './prescan';

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
 * The row/column (UTF-16 units) of an offset, as tree-sitter counts them in the text it
 * parses (`lineBreaksForParsing`): a row ends at LF and at a lone CR (one not followed by
 * LF). Two native scans; the second finds nothing in a file without CR.
 */
function pointAt(text: string, offset: number): Point {
  let row = 0;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) {
    row++;
    lineStart = i + 1;
  }
  for (let i = text.indexOf('\r'); i >= 0 && i < offset; i = text.indexOf('\r', i + 1)) {
    if (text.charCodeAt(i + 1) === 10) continue;
    row++;
    lineStart = Math.max(lineStart, i + 1);
  }
  return { row, column: offset - lineStart };
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

/** The whole lines of `text` that the range [start, end] touches. */
function linesAround(text: string, start: number, end: number): string {
  const from = text.lastIndexOf('\n', start - 1) + 1;
  const to = text.indexOf('\n', end);
  return text.slice(from, to < 0 ? text.length : to);
}

const IDENT = /[A-Za-z_$][A-Za-z0-9_$]*/g;
/** A whole line that is only a function's header: `export async function f(a: T): R {`, `def f(a):`. */
const FUNCTION_HEADER =
  /^\s*(?:export\s+)?(?:default\s+)?(?:async\s+)?function\*?\s+([A-Za-z_$][\w$]*)\s*(?:<[^>()]*>)?\([^()]*\)\s*(?::\s*[^{}=()]+)?\{?\s*$|^\s*(?:async\s+)?def\s+([A-Za-z_]\w*)\s*\([^()]*\)\s*(?:->\s*[^:]+)?:\s*$/;
/** Lines that bind names in ways too varied to pick out: parameters, imports, loops. */
const BINDS_MANY = /=>|\bfunction\b|\bdef\b|\blambda\b|\bimport\b|\bfor\b|\bclass\b|\bwith\b|\bexcept\b|\bcatch\b/;
const BOUND =
  /\b(?:const|let|var|as|global|nonlocal)\s+([A-Za-z_$][\w$]*)|([A-Za-z_$][\w$]*)\s*(?:[-+*/%|&^]|\*\*|\/\/|<<|>>)?=(?![=>])|([A-Za-z_$][\w$]*)(?=\s*\()|(?<=[(,[]\s*)([A-Za-z_$][\w$]*)(?=\s*[,)\]])/g;

/**
 * The names an edit could re-bind, from the lines it touched: declared or assigned
 * names, called names (a new caller feeds a parameter) and names passed bare as
 * arguments (`xs.map(f)`). Other call sites keep their values unless they resolved
 * one of these names.
 */
function boundNames(text: string): Set<string> {
  const out = new Set<string>();
  for (const line of text.split('\n')) {
    const header = FUNCTION_HEADER.exec(line);
    if (header) {
      // Parameters bind only inside the function, whose own sites the edit re-evaluates anyway.
      out.add(header[1] ?? header[2]);
      continue;
    }
    if (BINDS_MANY.test(line)) {
      for (const name of line.match(IDENT) ?? []) out.add(name);
      continue;
    }
    for (const m of line.matchAll(BOUND)) {
      const name = m[1] ?? m[2] ?? m[3] ?? m[4];
      if (name) out.add(name);
    }
  }
  return out;
}

/**
 * An open document that keeps its syntax tree between edits: each edit is applied to
 * the tree (`tree.edit`) and the reparse reuses every unchanged subtree.
 */
export class AnalyzedDocument {
  private tree: Tree | null = null;
  private current: FileAnalysis;
  private stale = false;
  readonly sites = new SiteCache();

  constructor(
    readonly file: string,
    readonly language: SourceLanguage,
    private text: string,
    private readonly options: AnalyzeOptions = {},
  ) {
    this.current = this.analyze();
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
      const oldEndPosition = pointAt(this.text, e.end);
      const oldLines = linesAround(this.text, e.start, e.end);
      const removed = this.text.slice(e.start, e.end);
      this.text = this.text.slice(0, e.start) + e.text + this.text.slice(e.end);
      const newEnd = e.start + e.text.length;
      const newEndPosition = pointAt(this.text, newEnd);
      this.sites.applyEdit({
        start: e.start,
        end: e.end,
        removed,
        inserted: e.text,
        startPoint: startPosition,
        oldEndPoint: oldEndPosition,
        newEndPoint: newEndPosition,
        names: boundNames(oldLines + '\n' + linesAround(this.text, e.start, newEnd)),
      });
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
    }
    this.stale = true;
    return analyze ? this.refresh() : this.current;
  }

  /** Reparses (incrementally) and analyses the current text if it changed. */
  refresh(): FileAnalysis {
    if (this.stale) {
      this.current = this.analyze();
      this.stale = false;
    }
    return this.current;
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
    this.stale = true;
    return analyze ? this.refresh() : this.current;
  }

  /** The current tree analysed with no call site reused: what the cache must agree with. */
  analyzeWithoutReuse(): FileAnalysis {
    return this.tree ? analyzeTree(this.tree, this.file, this.language, this.text, this.options) : this.current;
  }

  dispose(): void {
    this.tree?.delete();
    this.tree = null;
    this.sites.clear();
  }

  private analyze(): FileAnalysis {
    const none = (skipped: string | null) => emptyAnalysis(this.file, this.language, skipped);
    const skip = reasonToSkip(this.text, this.options.maxBytes ?? DEFAULT_MAX_BYTES);
    if (skip || !mayContainDynamoDbCalls(this.text)) {
      this.dispose();
      return none(skip);
    }
    try {
      const next = parse(this.language, this.text, this.options.budgetMs ?? DEFAULT_BUDGET_MS, this.tree ?? undefined);
      // Error recovery can restructure code away from the edit: drop sites that lie there.
      if (this.tree) {
        const changed = this.tree.getChangedRanges(next);
        // A declaration can appear or vanish there too: names written in those ranges count as re-bound.
        const names = new Set(
          changed.flatMap((r) => [...boundNames(linesAround(this.text, r.startIndex, r.endIndex))]),
        );
        this.sites.invalidateRanges(changed, names);
      }
      this.tree?.delete();
      this.tree = next;
    } catch (e) {
      this.dispose();
      return none(e instanceof ParseTimeout ? e.message : `parser failed: ${String(e)}`);
    }
    return analyzeTree(this.tree, this.file, this.language, this.text, { ...this.options, siteCache: this.sites });
  }
}
