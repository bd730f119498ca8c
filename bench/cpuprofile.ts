// Reads a V8 CPU profile (`node --cpu-prof`) of a bundle and says where the time went,
// by source file and function, mapped back through the bundle's source map: self time
// (the function itself), inclusive time (the function and what it called) and, for the
// language server, which handler of server/src/lsp/ the time was spent under. Samples can be restricted to
// time windows (CLOCK_MONOTONIC microseconds, the clock V8 stamps samples with) and to
// stacks that pass through a named function.
import * as fs from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}
export interface Cost {
  where: string;
  ms: number;
  share: number;
}
export interface Breakdown {
  sampledMs: number;
  busyMs: number;
  self: Cost[];
  inclusive: Cost[];
  byFile: Cost[];
  byHandler: Cost[];
}

const maps = new Map<string, SourceMap | null>();
function mapFor(url: string): SourceMap | null {
  if (!maps.has(url)) {
    let m: SourceMap | null = null;
    try {
      const file = url.startsWith('file:') ? fileURLToPath(url) : url;
      if (file.endsWith('.js') && fs.existsSync(`${file}.map`))
        m = new SourceMap(JSON.parse(fs.readFileSync(`${file}.map`, 'utf8')));
    } catch {
      m = null;
    }
    maps.set(url, m);
  }
  return maps.get(url)!;
}

/** Line `line` (0-based) of an original source, from the map's sourcesContent. */
function sourceLine(map: SourceMap, source: string, line: number): string {
  const { sources, sourcesContent } = map.payload;
  const text = sourcesContent?.[sources.indexOf(source)] ?? '';
  return (text.split('\n')[line] ?? '').trim();
}

/** `server/src/engine/x.ts` out of whatever prefix the bundle's sources carry. */
function shortSource(source: string): string {
  const s = source.replace(/^file:\/\//, '');
  const m = /(?:^|\/)((?:server|protocol|bench)\/src\/.*|bench\/[^/]+$|node_modules\/.*)$/.exec(s);
  return m ? m[1].replace(/^node_modules\/((?:@[^/]+\/)?[^/]+)\/.*$/, '$1') : s.replace(/^.*\//, '');
}

/** A frame as file:function:line of the original source (V8's own pseudo-frames as they are). */
function describe(f: CallFrame): { where: string; file: string } {
  const name = f.functionName || '(anonymous)';
  if (!f.url) return { where: name, file: name.startsWith('(') ? name : '(V8 builtins, RegExp)' };
  if (f.url.startsWith('wasm:')) return { where: `tree-sitter wasm:${name}`, file: 'tree-sitter (wasm)' };
  const map = mapFor(f.url);
  const e = map?.findEntry(f.lineNumber, f.columnNumber) as
    { originalSource?: string; originalLine?: number } | undefined;
  if (e?.originalSource) {
    const file = shortSource(e.originalSource);
    const line = e.originalLine ?? 0;
    // An anonymous function (a handler passed to `connection.onHover(...)`) is named by its line's code.
    const code = f.functionName ? '' : ` \`${sourceLine(map!, e.originalSource, line).slice(0, 60)}\``;
    return { where: `${file}:${name}:${line + 1}${code}`, file };
  }
  const file = f.url.startsWith('node:') ? 'node internals' : shortSource(f.url);
  return { where: `${file}:${name}:${f.lineNumber + 1}`, file };
}

const IDLE = new Set(['(idle)', '(program)']);
/** Frames every sample passes through: no information in an inclusive-time list. */
const OUTER = new Set(['(root)']);

/**
 * Time per function in the samples that fall in `windows` (if given) and whose stack
 * passes through a function named `within` (if given).
 */
export function breakdown(
  file: string,
  { windows, within, top = 15 }: { windows?: Array<[number, number]>; within?: string; top?: number } = {},
): Breakdown {
  const p = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
  const parent = new Map<number, number>();
  const byId = new Map<number, ProfileNode>();
  for (const n of p.nodes) {
    byId.set(n.id, n);
    for (const c of n.children ?? []) parent.set(c, n.id);
  }
  const labels = new Map<number, { where: string; file: string; handler: boolean }>();
  const label = (id: number) => {
    let l = labels.get(id);
    if (!l) {
      const d = describe(byId.get(id)!.callFrame);
      l = { ...d, handler: d.file.startsWith('server/src/lsp/') };
      labels.set(id, l);
    }
    return l;
  };
  const self = new Map<string, number>();
  const incl = new Map<string, number>();
  const files = new Map<string, number>();
  const handlers = new Map<string, number>();
  const add = (m: Map<string, number>, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v);
  let t = p.startTime;
  let sampled = 0;
  let busy = 0;
  for (let i = 0; i < p.samples.length; i++) {
    t += p.timeDeltas[i];
    if (windows && !windows.some(([a, b]) => t >= a && t <= b)) continue;
    const ms = (p.timeDeltas[i + 1] ?? p.timeDeltas[i]) / 1000;
    const stack: number[] = [];
    for (let id: number | undefined = p.samples[i]; id !== undefined; id = parent.get(id)) stack.push(id);
    if (within && !stack.some((id) => byId.get(id)!.callFrame.functionName === within)) continue;
    sampled += ms;
    const leaf = label(stack[0]);
    if (IDLE.has(leaf.where)) continue;
    busy += ms;
    add(self, leaf.where, ms);
    add(files, leaf.file, ms);
    for (const w of new Set(stack.map((id) => label(id).where))) if (!OUTER.has(w)) add(incl, w, ms);
    // The outermost frame of the LSP layer: the handler, timer or async continuation
    // (e.g. workspace.ts:publish after an await) the time was spent under.
    const h = [...stack].reverse().find((id) => label(id).handler);
    add(handlers, h === undefined ? '(outside server/src/lsp/: JSON-RPC, GC)' : label(h).where, ms);
  }
  const list = (m: Map<string, number>, n: number) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([where, ms]) => ({ where, ms, share: busy ? ms / busy : 0 }));
  return {
    sampledMs: sampled,
    busyMs: busy,
    self: list(self, top),
    inclusive: list(incl, top * 2),
    byFile: list(files, top),
    byHandler: list(handlers, 8),
  };
}

/** The breakdown as Markdown tables, for the report and the terminal. */
export function breakdownMarkdown(title: string, b: Breakdown): string {
  const table = (head: string, rows: Cost[]) =>
    [
      `| ${head} | ms | share of busy time |`,
      '| --- | --- | --- |',
      ...rows.map((r) => `| \`${r.where}\` | ${r.ms.toFixed(1)} | ${(r.share * 100).toFixed(1)}% |`),
    ].join('\n');
  return [
    `### ${title}`,
    '',
    `${b.sampledMs.toFixed(0)} ms sampled, ${b.busyMs.toFixed(0)} ms of it busy (the rest idle).`,
    '',
    // Only the language server's profile has handlers to tell apart.
    ...(b.byHandler.length > 1 ? [table('Entry: outermost frame in server/src/lsp/', b.byHandler), ''] : []),
    table('Self time: function', b.self),
    '',
    table('Inclusive time: function (and what it calls)', b.inclusive),
    '',
    table('Self time by source file', b.byFile),
    '',
  ].join('\n');
}
