// Row (f): the workspace index update after one file changes. Builds a WorkspaceIndex
// over every file of the workspace the way `shardlens check` does (server/src/cli/main.ts:
// index.analyzeFile(file, false) for each collected file: read, pre-scan, parse, analyse,
// imports resolved across files), then picks a DynamoDB file
// deterministically, changes one line (one character typed into it) and times
// index.update(file, newText, language): re-analysis of that file plus the re-check of
// the logical keys it touches. The file is put back (untimed) before the next pick.
//
//   node --import tsx bench/index-update.ts <dir> [updates=200] [seed]
import * as fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { analyzeSource } from '../server/src/engine/analyze';
import type { SourceLanguage } from '../server/src/engine/model';
import { initParsers, languageForFile } from '../server/src/engine/syntax/parser';
import { collectFiles } from '../server/src/engine/workspace/files';
import { WorkspaceIndex } from '../server/src/engine/workspace/index';
import { keystroke, rng, summary } from './stats';

/** The CLI's default --max-file-size (2048 KB). */
const MAX_BYTES = 2048 * 1024;

async function main(): Promise<void> {
  const dir = process.argv[2];
  const updates = Number(process.argv[3] ?? 200);
  const next = rng(Number(process.argv[4] ?? 777));
  await initParsers();

  const b0 = performance.now();
  const list = collectFiles([dir]);
  const index = new WorkspaceIndex({ root: process.cwd(), maxBytes: MAX_BYTES });
  for (const f of list.files) index.analyzeFile(f, false);
  const buildMs = performance.now() - b0;

  const dynamo = index
    .results()
    .filter((r) => r.accesses.length > 0)
    .map((r) => r.file);
  const originals = new Map<string, string>();
  const text = (f: string) => {
    if (!originals.has(f)) originals.set(f, fs.readFileSync(f, 'utf8'));
    return originals.get(f)!;
  };

  const times: number[] = [];
  const analyzeOnly: number[] = [];
  const touched: number[] = [];
  const slow: Array<{ file: string; line: number; lines: number; touched: number; ms: number }> = [];
  for (let i = 0; i < updates + 10; i++) {
    const file = dynamo[Math.floor(next() * dynamo.length)];
    const language = languageForFile(file) as SourceLanguage;
    const original = text(file);
    const lines = original.split('\n');
    const candidates = lines.map((l, n) => n).filter((n) => lines[n].trim().length > 0);
    const row = candidates[Math.floor(next() * candidates.length)];
    const column = Math.floor(next() * (lines[row].length + 1));
    lines[row] = lines[row].slice(0, column) + keystroke(next) + lines[row].slice(column);
    const changed = lines.join('\n');

    let t = performance.now();
    analyzeSource(file, changed, language, index.fileOptions);
    const a = performance.now() - t;
    t = performance.now();
    const keys = index.update(file, changed, language);
    const u = performance.now() - t;
    index.update(file, original, language);
    if (i < 10) continue; // warm-up
    analyzeOnly.push(a);
    times.push(u);
    touched.push(keys.size);
    slow.push({ file, line: row + 1, lines: lines.length, touched: keys.size, ms: u });
  }
  process.stdout.write(
    JSON.stringify({
      files: list.files.length,
      indexed: index.size,
      dynamoFiles: dynamo.length,
      buildMs,
      ...summary(times),
      analyzeOnly: summary(analyzeOnly),
      touchedKeys: summary(touched),
      slowest: slow.sort((a, b) => b.ms - a.ms).slice(0, 8),
    }) + '\n',
  );
}

void main();
