/**
 * What both front-ends share when they read a file for the reachability pass: they list
 * what they see (named functions, entry points with their inline handler or the name
 * they call, every call, every loop) and `assemble` gives each call and loop to the
 * smallest function around it, so that `FileReach` is built the same way in every
 * language. Also the schedule arithmetic (`rate(30 minutes)` is 2 an hour).
 */
import type { Node } from 'web-tree-sitter';
import type { EntryKind, EntryPoint, FileReach, FunctionNode, ImportBinding } from '../model/entry-point';
import type { Span } from '../model/range';
import { sameSpan, spanWithin } from '../span';

export const MODULE = '<module>';

export interface SeenFunction {
  name: string;
  span: Span;
  exported: boolean;
}

/** An entry point as read: its handler written inline (`span`) or named (`calls`: `vote`, `views.vote`). */
export interface SeenEntry {
  entry: EntryPoint;
  span: Span | null;
  calls?: Array<{ name: string; member: boolean }>;
}

export interface SeenCall {
  name: string;
  member: boolean;
  span: Span;
}

export interface Seen {
  file: string;
  functions: SeenFunction[];
  entries: SeenEntry[];
  calls: SeenCall[];
  loops: Span[];
  imports: ImportBinding[];
  declaresApp: boolean;
}

const EMPTY: Span = { startLine: 0, startColumn: 0, endLine: 0, endColumn: 0 };

function size(s: Span): number {
  return (s.endLine - s.startLine) * 100_000 + (s.endColumn - s.startColumn);
}

/** The file's functions with their calls and loops, and its entry points with their roots. */
export function assemble(seen: Seen): FileReach {
  const nodes: FunctionNode[] = seen.functions.map((f) => ({ ...f, calls: [], loops: [] }));
  const entries: FileReach['entries'] = [];
  seen.entries.forEach((e, i) => {
    // A handler that is itself a named function (a decorated view, an exported GET) starts there.
    const same = e.span && nodes.find((n) => sameSpan(n.span, e.span!));
    if (same) {
      entries.push({ entry: e.entry, root: same.name });
      return;
    }
    const root = e.span ? `<${e.entry.name}>` : `<entry ${i}: ${e.entry.name}>`;
    const node: FunctionNode = {
      name: root,
      span: e.span ?? EMPTY,
      calls: (e.calls ?? []).map((c) => ({ ...c, inLoop: false })),
      loops: [],
      exported: false,
    };
    nodes.push(node);
    entries.push({ entry: e.entry, root });
  });
  const module: FunctionNode = { name: MODULE, span: EMPTY, calls: [], loops: [], exported: false };
  // Smallest first: a span is given to the innermost function around it.
  const bySize = nodes.filter((n) => size(n.span) > 0).sort((a, b) => size(a.span) - size(b.span));
  const owner = (s: Span) => bySize.find((n) => spanWithin(s, n.span)) ?? module;
  for (const l of seen.loops) owner(l).loops.push(l);
  for (const c of seen.calls) {
    const n = owner(c.span);
    n.calls.push({ name: c.name, member: c.member, inLoop: n.loops.some((l) => spanWithin(c.span, l)) });
  }
  return {
    file: seen.file,
    functions: [module, ...nodes],
    imports: seen.imports,
    entries,
    declaresApp: seen.declaresApp,
  };
}

export function entryPoint(
  kind: EntryKind,
  name: string,
  file: string,
  functionName: string | null,
  at: Span,
  trigger: string,
  ratePerHour: number | null = null,
): EntryPoint {
  return {
    kind,
    name,
    file,
    functionName,
    line: at.startLine,
    trigger,
    ratePerHour,
    source: { file, span: at },
  };
}

const UNIT_MINUTES: Record<string, number> = { minute: 1, hour: 60, day: 1440, week: 10080 };

/** Invocations per hour of `rate(n unit)`; null when the unit is not one of minutes, hours, days. */
export function ratePerHourOf(n: number, unit: string): number | null {
  const minutes = UNIT_MINUTES[unit.toLowerCase().replace(/s$/, '')];
  if (!minutes || !(n > 0)) return null;
  return 60 / (n * minutes);
}

/**
 * Invocations per hour a cron expression (minute hour day month weekday [year]) makes at
 * most: a list or step in the minute field times one in the hour field; null when a
 * field is too free to say (it then counts as not stated).
 */
export function cronPerHour(fields: string[]): number | null {
  if (fields.length < 5) return null;
  const count = (f: string, range: number): number | null => {
    if (f === '*' || f === '?') return range;
    const step = /^(?:\*|\d+)\/(\d+)$/.exec(f);
    if (step) return Math.ceil(range / Number(step[1]));
    if (/^\d+(?:,\d+)*$/.test(f)) return f.split(',').length;
    const span = /^(\d+)-(\d+)$/.exec(f);
    if (span) return Number(span[2]) - Number(span[1]) + 1;
    return null;
  };
  const minutes = count(fields[0], 60);
  const hours = count(fields[1], 24);
  if (minutes === null || hours === null) return null;
  // At most `minutes` an hour in the hours it runs.
  return hours === 24 || minutes < 60 ? minutes : null;
}

/** `rate(5 minutes)` read from text; null when it is not one. */
export function parseRate(text: string): { trigger: string; ratePerHour: number | null } | null {
  const rate = /^rate\(\s*(\d+)\s+(\w+)\s*\)$/i.exec(text.trim());
  if (rate) return { trigger: text.trim(), ratePerHour: ratePerHourOf(Number(rate[1]), rate[2]) };
  const cron = /^cron\((.*)\)$/i.exec(text.trim());
  if (cron) return { trigger: text.trim(), ratePerHour: cronPerHour(cron[1].trim().split(/\s+/)) };
  return null;
}

/** HTTP methods a route call or decorator may name. */
export const HTTP_METHODS = new Set(['get', 'post', 'put', 'patch', 'delete', 'head', 'options', 'all']);

/**
 * The nodes of the given types, depth first. The cursor's type is read without making a
 * node object, so a file's thousands of other nodes cost next to nothing (a walk making
 * every node took 20 ms a file).
 */
export function* nodesOfTypes(root: Node, types: ReadonlySet<string>): Generator<Node> {
  const cursor = root.walk();
  try {
    let descending = true;
    for (;;) {
      if (descending && types.has(cursor.nodeType)) yield cursor.currentNode;
      if (descending && cursor.gotoFirstChild()) continue;
      if (cursor.gotoNextSibling()) {
        descending = true;
        continue;
      }
      if (!cursor.gotoParent()) return;
      descending = false;
    }
  } finally {
    cursor.delete();
  }
}
