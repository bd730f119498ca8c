import type { Node, Point } from 'web-tree-sitter';
import { newDeps } from '../frontends/evaluation';
import { type Deps } from '../model/eval-context';
import type { CallSite } from '../model/call-site';
import { carryOver } from '../requests/interpret-memo';
import type { Span } from '../model';
import type { EditNames, ScopedName } from './edit-names';
import type { FileImports } from '../frontends/imports';
import { moveSpans, spanLines } from '../syntax/positions';
import { NameScan } from '../syntax/candidates';

/** An edit in the coordinates of the text before it, with the text it removed and inserted. */
export interface EditRecord {
  start: number;
  end: number;
  removed: string;
  inserted: string;
  startPoint: Point;
  oldEndPoint: Point;
  newEndPoint: Point;
  /** Identifiers on the lines the edit touched, before and after it, that it may re-bind. */
  names: Set<string>;
  /** Names only called there: they matter to sites that read their callers. */
  called: Set<string>;
  /** Of those, the ones declared inside a block (its range in the text before the edit). */
  scoped: ScopedName[];
}

interface Entry {
  start: number;
  end: number;
  /** Where the candidate scan found the call's name (`PutCommand`, `put_item`): how a later scan finds the entry. */
  at: number;
  /** The top-level statement holding the call: an edit inside it may change the call's context. */
  outerStart: number;
  outerEnd: number;
  /** Null for a call that is not a DynamoDB call: kept too, or every edit would evaluate it again. */
  site: CallSite | null;
  deps: Deps;
  /** The lines positions in the site start or end on, and the last of them. */
  lines: { lines: Set<number>; last: number };
}

const NAMED_FUNCTIONS = new Set([
  'function_declaration',
  'generator_function_declaration',
  'method_definition',
  'function_definition',
]);

const FUNCTION_NAMES = new Set([
  'function_declaration',
  'generator_function_declaration',
  'method_definition',
  'function_definition',
  'class_definition',
  'class_declaration',
]);

/** Values that make a declarator a function (`const save = async (x) => ...`), in both languages' trees. */
const FUNCTION_VALUES = new Set(['arrow_function', 'function_expression', 'function', 'generator_function', 'lambda']);

/**
 * Call sites evaluated in an earlier version of a document, kept across edits. A site
 * is reused when the edit is outside its top-level statement, touches no range its
 * evaluation consulted and mentions no name it resolved; its spans are shifted.
 */
export class SiteCache {
  private entries = new Map<number, Entry>();
  /** The entries by `at`, made when first asked after a change. */
  private byName: Map<number, Entry> | null = null;
  /** The file's imports, kept until an edit reaches the import block. */
  private imports: FileImports | null = null;
  /** The candidate scan's offsets, kept across edits (see `NameScan`). */
  readonly names = new NameScan();

  /** The file's imports: kept from the last analysis unless an edit reached them. */
  importsOf(read: () => FileImports): FileImports {
    return (this.imports ??= read());
  }
  /**
   * The site kept for the call whose name the candidate scan found at `at` (with the
   * call's extent, for order), without asking the tree: a kept site is one no edit reached.
   */
  known(at: number): { start: number; end: number; site: CallSite | null } | undefined {
    this.byName ??= new Map([...this.entries.values()].map((e) => [e.at, e]));
    return this.byName.get(at);
  }

  /** The cached site for this call node (named at `at`), or the site `evaluate` makes (then cached). */
  siteFor(n: Node, evaluate: (deps: Deps) => CallSite | null, at = n.startIndex): CallSite | null {
    const hit = this.entries.get(n.startIndex);
    if (hit && hit.end === n.endIndex) return hit.site;
    const deps = newDeps();
    const site = evaluate(deps);
    // The call's context: its outermost named function or method (an edit in one method
    // leaves the sites of the others alone), else its top-level statement.
    let statement = n;
    let namedFunction: Node | null = null;
    const callers: string[] = [];
    for (let p = n.parent; p?.parent; p = p.parent) {
      statement = p;
      if (NAMED_FUNCTIONS.has(p.type)) namedFunction = p;
      // A parameter's values come from callers of the enclosing function: new callers mention its name.
      // Only a declarator holding a function has callers: `const out = await ddb.send(...)`
      // names a result, and made every site in a `const out = ...` dropped by any edit near
      // another `out` (24 of the 150 sites of the bench's 2,990-line file).
      const name = FUNCTION_NAMES.has(p.type)
        ? p.childForFieldName('name')?.text
        : p.type === 'variable_declarator' && FUNCTION_VALUES.has(p.childForFieldName('value')?.type ?? '')
          ? p.childForFieldName('name')?.text
          : undefined;
      if (name) callers.push(name);
    }
    const outer = namedFunction ?? statement;
    // A name bound only inside the site's own context (a local, a parameter, a loop
    // variable) cannot be re-bound by an edit elsewhere: an edit inside the context
    // drops the site anyway. Common local names (`shard`, `item`) then stop dropping
    // the sites of every other function that uses them.
    for (const [name, at] of deps.bindings) {
      if (at.every((s) => s >= outer.startIndex && s < outer.endIndex)) deps.names.delete(name);
    }
    for (const name of callers) deps.callers.add(name);
    // The call style's indentation is the text before its statement on that line.
    const st = site?.call.statement;
    const first = st && n.tree.rootNode.descendantForPosition({ row: st.startLine, column: st.startColumn });
    if (st && first) deps.ranges.push(first.startIndex - st.startColumn, first.startIndex);
    this.byName = null;
    this.entries.set(n.startIndex, {
      start: n.startIndex,
      end: n.endIndex,
      at,
      outerStart: outer.startIndex,
      outerEnd: outer.endIndex,
      site,
      deps,
      lines: site ? spanLines(site, site.file) : NO_LINES,
    });
    return site;
  }

  /** Drops the sites an edit may change and moves the rest to the text after it. */
  applyEdit(e: EditRecord): void {
    // Imports sit at the top: an edit below the last one leaves them, and their positions,
    // as they were, unless it writes or removes an import itself.
    if (this.imports && (e.start <= this.imports.end || mentionsImport(e))) this.imports = null;
    this.names.edit(e.start, e.end, e.inserted.length);
    const delta = e.inserted.length - e.removed.length;
    const next = new Map<number, Entry>();
    for (const entry of this.entries.values()) {
      if (!survives(entry, e)) continue;
      const moved = shiftEntry(entry, e, delta);
      next.set(moved.start, moved);
    }
    this.entries = next;
    this.byName = null;
  }

  /** Drops sites whose context lies in ranges (new coordinates) the reparse restructured. */
  invalidateRanges(ranges: Array<{ startIndex: number; endIndex: number }>, edit: EditNames): void {
    if (ranges.length === 0) return;
    if (this.imports && (mentionsImport(edit) || ranges.some((r) => r.startIndex <= this.imports!.end)))
      this.imports = null;
    for (const [key, entry] of this.entries) {
      const renamed = namesReach(entry, edit) || edit.scoped.some((s) => seesScoped(entry, s));
      const hit =
        renamed ||
        ranges.some((r) => {
          const e = { start: r.startIndex, end: r.endIndex };
          if (entry.outerStart <= e.end && e.start <= entry.outerEnd) return true;
          const d = entry.deps.ranges;
          for (let i = 0; i < d.length; i += 2) if (d[i] <= e.end && e.start <= d[i + 1]) return true;
          return false;
        });
      if (hit) this.entries.delete(key);
      if (hit) this.byName = null;
    }
  }

  clear(): void {
    this.entries.clear();
    this.byName = null;
    this.imports = null;
    this.names.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}

/** A call that is no DynamoDB call has no positions to move. */
const NO_LINES = { lines: new Set<number>(), last: -1 };

function touches(a: number, b: number, e: EditRecord): boolean {
  return a <= e.end && e.start <= b;
}

function survives(entry: Entry, e: EditRecord): boolean {
  if (touches(entry.outerStart, entry.outerEnd, e)) return false;
  const r = entry.deps.ranges;
  for (let i = 0; i < r.length; i += 2) if (touches(r[i], r[i + 1], e)) return false;
  if (namesReach(entry, e)) return false;
  for (const s of e.scoped) if (seesScoped(entry, s)) return false;
  return true;
}

/** Whether names an edit may re-bind or call reach what a site resolved or whose callers it read. */
function namesReach(entry: Entry, e: Pick<EditNames, 'names' | 'called'>): boolean {
  const { names, callers } = entry.deps;
  for (const name of e.names) if (names.has(name) || callers.has(name)) return true;
  for (const name of e.called) if (callers.has(name)) return true;
  return false;
}

/**
 * Whether a declaration inside a block can change a site: only a site that resolved
 * the name somewhere inside that block (its call, or a caller's argument, or any
 * node its evaluation consulted there) can see it.
 */
function seesScoped(entry: Entry, s: ScopedName): boolean {
  if (!entry.deps.names.has(s.name) && !entry.deps.callers.has(s.name)) return false;
  if (entry.outerStart <= s.end && s.start <= entry.outerEnd) return true;
  const r = entry.deps.ranges;
  for (let i = 0; i < r.length; i += 2) if (r[i] <= s.end && s.start <= r[i + 1]) return true;
  return false;
}

function shiftIndex(i: number, e: EditRecord, delta: number): number {
  return i >= e.end ? i + delta : i;
}

function shiftPoint(line: number, column: number, e: EditRecord): [number, number] {
  const end = e.oldEndPoint;
  if (line < end.row || (line === end.row && column < end.column)) return [line, column];
  if (line === end.row) return [e.newEndPoint.row, e.newEndPoint.column + (column - end.column)];
  return [line + (e.newEndPoint.row - end.row), column];
}

/** The span after the edit; the same object when the edit does not move it. */
export function shiftSpan(s: Span, e: EditRecord): Span {
  const [startLine, startColumn] = shiftPoint(s.startLine, s.startColumn, e);
  const [endLine, endColumn] = shiftPoint(s.endLine, s.endColumn, e);
  if (
    startLine === s.startLine &&
    startColumn === s.startColumn &&
    endLine === s.endLine &&
    endColumn === s.endColumn
  ) {
    return s;
  }
  return { startLine, startColumn, endLine, endColumn };
}

function shiftEntry(entry: Entry, e: EditRecord, delta: number): Entry {
  const r = entry.deps.ranges.map((i) => shiftIndex(i, e, delta));
  const rows = e.newEndPoint.row - e.oldEndPoint.row;
  // Positions before the edit's end never move; without new lines, only those on its last line do.
  const still = entry.lines.last < e.oldEndPoint.row || (rows === 0 && !entry.lines.lines.has(e.oldEndPoint.row));
  // Unmoved sites stay the same object, and keep what was computed for them.
  const site = entry.site;
  const moved = still || !site ? site : moveSpans(site, (s) => shiftSpan(s, e), site.file);
  if (site && moved && moved !== site) carryOver(site, moved, (s) => shiftSpan(s, e));
  const lines = moved === site || !moved ? entry.lines : spanLines(moved, moved.file);
  return {
    start: shiftIndex(entry.start, e, delta),
    end: shiftIndex(entry.end, e, delta),
    at: shiftIndex(entry.at, e, delta),
    outerStart: shiftIndex(entry.outerStart, e, delta),
    outerEnd: shiftIndex(entry.outerEnd, e, delta),
    site: moved,
    deps: { ...entry.deps, ranges: r },
    lines,
  };
}

/** Words that start an import in any language the engine reads. */
function mentionsImport({ names, called }: Pick<EditNames, 'names' | 'called'>): boolean {
  return names.has('import') || names.has('require') || called.has('require') || names.has('from');
}
