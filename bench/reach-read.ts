// The open file's reach alone (`ReachCache.read`), after each one-character edit of the
// ~3,000-line file: row (d)'s keystrokes (type a character at a seeded position, delete it
// again), each applied to the tree and the cache and reparsed untimed, then the reach read
// timed. What row (d) spends reading reach, without the rest of the analysis around it.
// Prints one JSON line: p50/p90/p99/mean and how many pieces were read again and kept.
// Usage: node --import tsx bench/reach-read.ts [file] [edits=400] [seed=4242]
import * as fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { Edit } from 'web-tree-sitter';
import { ReachCache } from '../server/src/engine/incremental/reach-cache';
import type { SourceLanguage } from '../server/src/engine/model';
import { initParsers, languageForFile, parse } from '../server/src/engine/syntax/parser';
import { pointAt } from '../server/src/engine/syntax/positions';
import { keystroke, rng, summary } from './stats';

const WARM_UP = 50;

async function main(): Promise<void> {
  const file = process.argv[2] ?? 'bench/workspace/services/ledger/src/ledger-store.ts';
  const edits = Number(process.argv[3] ?? 400);
  const next = rng(Number(process.argv[4] ?? 4242));
  await initParsers();
  const language = languageForFile(file) as SourceLanguage;
  let text = fs.readFileSync(file, 'utf8');
  const cache = new ReachCache();
  let tree = parse(language, text);
  cache.read(tree, file, language, text);
  const lineStarts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  const codeLines = text
    .split('\n')
    .map((l, i) => [l, i] as const)
    .filter(([l]) => l.trim().length > 0);

  /** One edit applied to the text, the tree and the cache, reparsed; the reach read after it, timed. */
  const editAndRead = (start: number, end: number, inserted: string): number => {
    const startPoint = pointAt(text, start);
    const oldEndPoint = pointAt(text, end);
    const removed = text.slice(start, end);
    text = text.slice(0, start) + inserted + text.slice(end);
    const newEndPoint = pointAt(text, start + inserted.length);
    tree.edit(
      new Edit({
        startIndex: start,
        oldEndIndex: end,
        newEndIndex: start + inserted.length,
        startPosition: startPoint,
        oldEndPosition: oldEndPoint,
        newEndPosition: newEndPoint,
      }),
    );
    const record = { start, end, removed, inserted, startPoint, oldEndPoint, newEndPoint };
    cache.applyEdit({ ...record, names: new Set(), called: new Set(), scoped: [] });
    const reparsed = parse(language, text, 5000, tree);
    tree.delete();
    tree = reparsed;
    const t = performance.now();
    cache.read(tree, file, language, text);
    return performance.now() - t;
  };

  const times: number[] = [];
  for (let i = 0; i < WARM_UP + edits / 2; i++) {
    const [line, row] = codeLines[Math.floor(next() * codeLines.length)];
    const offset = lineStarts[row] + Math.floor(next() * (line.length + 1));
    const typed = editAndRead(offset, offset, keystroke(next));
    const deleted = editAndRead(offset, offset + 1, '');
    if (i >= WARM_UP) times.push(typed, deleted);
  }
  tree.delete();
  cache.clear();
  console.log(JSON.stringify({ file, lines: lineStarts.length, ...summary(times), reads: cache.reads }));
}

void main();
