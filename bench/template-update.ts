// Row (r): the index update after a template edit, the language server's path for a
// changed infrastructure file (server/src/lsp/workspace.ts refreshFile): a WorkspaceIndex
// over every file and template of the workspace, built as the CLI builds it; then, many
// times, one template picked deterministically gets one edit an author makes (a schedule's
// rate changed, an event's path or method changed, a function's environment variable
// renamed) as the open document's text, and index.readInfrastructure + rebindEnv +
// filesReachedOtherwise + the findings of every file the change re-judges are timed. The
// template is put back (untimed) before the next edit.
//
//   node --import tsx bench/template-update.ts <dir> [updates=200] [seed]
import * as fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { initParsers } from '../server/src/engine/syntax/parser';
import { collectFiles } from '../server/src/engine/workspace/files';
import { WorkspaceIndex } from '../server/src/engine/workspace/index';
import { completeIndex } from '../server/src/engine/workspace/cache/run';
import { rng, summary } from './stats';

const MAX_BYTES = 2048 * 1024;

/** Edits an author makes to a template: each a text replacement of something it holds, or null when it holds none. */
const EDITS: Array<(text: string, pick: () => number) => string | null> = [
  (t, pick) => replaceNth(t, /rate\((\d+) minutes?\)/g, pick, (m) => `rate(${Number(m[1]) + 1} minutes)`),
  (t, pick) => replaceNth(t, /(Path|path): \/?([\w{}/-]+)/g, pick, (m) => `${m[1]}: /${m[2]}-v2`),
  (t, pick) => replaceNth(t, /([Mm]ethod): (get|post)/g, pick, (m) => `${m[1]}: ${m[2] === 'get' ? 'post' : 'get'}`),
  (t, pick) => replaceNth(t, /TABLE_NAME:/g, pick, () => 'TABLE:'),
];

function replaceNth(text: string, re: RegExp, pick: () => number, to: (m: RegExpMatchArray) => string): string | null {
  const all = [...text.matchAll(re)];
  if (!all.length) return null;
  const m = all[Math.floor(pick() * all.length)];
  return text.slice(0, m.index) + to(m) + text.slice(m.index! + m[0].length);
}

async function main(): Promise<void> {
  const dir = process.argv[2];
  const updates = Number(process.argv[3] ?? 200);
  const next = rng(Number(process.argv[4] ?? 4242));
  await initParsers();

  const open = new Map<string, string>();
  const b0 = performance.now();
  const list = collectFiles([dir]);
  const index = new WorkspaceIndex({ root: process.cwd(), maxBytes: MAX_BYTES, openText: (f) => open.get(f) ?? null });
  index.readInfrastructure(list.infrastructure);
  for (const f of list.files) index.analyzeFile(f, false);
  await completeIndex(index, list.files, null);
  // The first findings of every file, as the server publishes them after indexing.
  for (const r of index.results()) void r;
  const buildMs = performance.now() - b0;

  const templates = index
    .infrastructure()
    .filter((d) => d.functions.length > 0)
    .map((d) => d.file);
  if (!templates.length) throw new Error(`no template declares a function under ${dir}`);
  const times: number[] = [];
  const rejudged: number[] = [];
  const slow: Array<{ file: string; edit: number; files: number; ms: number }> = [];
  for (let i = 0; i < updates + 10; i++) {
    const file = templates[Math.floor(next() * templates.length)];
    const original = fs.readFileSync(file, 'utf8');
    const kind = Math.floor(next() * EDITS.length);
    const edited = EDITS[kind](original, next) ?? original + '\n';
    open.set(file, edited);

    const t = performance.now();
    const keys = index.readInfrastructure([file]) ? index.rebindEnv() : new Set<string>();
    const files = new Set([file, ...index.filesOf(keys), ...index.filesReachedOtherwise()]);
    for (const f of files) index.findingsFor(f);
    const ms = performance.now() - t;

    open.delete(file);
    index.readInfrastructure([file]);
    index.rebindEnv();
    index.filesReachedOtherwise();
    if (i < 10) continue; // warm-up
    times.push(ms);
    rejudged.push(files.size);
    slow.push({ file, edit: kind, files: files.size, ms });
  }
  process.stdout.write(
    JSON.stringify({
      files: list.files.length,
      templates: templates.length,
      buildMs,
      ...summary(times),
      rejudged: summary(rejudged),
      slowest: slow.sort((a, b) => b.ms - a.ms).slice(0, 5),
    }) + '\n',
  );
}

void main();
