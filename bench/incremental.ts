// Row (d): incremental re-analysis of one open ~3,000-line document after a one-line
// edit, in process, the way the language server keeps it (AnalyzedDocument). Each
// measured edit is one keystroke at a deterministic position: type a character
// somewhere in a line, then delete it again (so the document returns to the original
// and the next position starts from clean code). Every applyEdits call is timed.
//
//   node --import tsx bench/incremental.ts <file.ts> [edits=300] [seed]
import * as fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { analyzeSource } from '../server/src/engine/analyze';
import { AnalyzedDocument } from '../server/src/engine/incremental/document';
import type { SourceLanguage } from '../server/src/engine/model';
import { initParsers, languageForFile } from '../server/src/engine/syntax/parser';
import { keystroke, rng, summary } from './stats';

async function main(): Promise<void> {
  const file = process.argv[2];
  const edits = Number(process.argv[3] ?? 300);
  const next = rng(Number(process.argv[4] ?? 4242));
  await initParsers();
  const language = languageForFile(file) as SourceLanguage;
  const original = fs.readFileSync(file, 'utf8');
  const lineStarts = [0];
  for (let i = original.indexOf('\n'); i >= 0; i = original.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  const lines = original.split('\n');
  const codeLines = lines.map((l, i) => [l, i] as const).filter(([l]) => l.trim().length > 0);

  // A fresh full analysis of the same text, for comparison (median of 5).
  const full: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    analyzeSource(file, original, language);
    full.push(performance.now() - t);
  }

  const t0 = performance.now();
  const doc = new AnalyzedDocument(file, language, original);
  const openMs = performance.now() - t0;
  const accesses = doc.analysis.accesses.length;

  const pickEdit = () => {
    const [line, row] = codeLines[Math.floor(next() * codeLines.length)];
    const column = Math.floor(next() * (line.length + 1));
    return { offset: lineStarts[row] + column, row, column, char: keystroke(next) };
  };
  // Warm-up: the editor's server has run before the user types; JIT the paths first.
  for (let i = 0; i < 10; i++) {
    const e = pickEdit();
    doc.applyEdits([{ start: e.offset, end: e.offset, text: e.char }]);
    doc.applyEdits([{ start: e.offset, end: e.offset + 1, text: '' }]);
  }

  const times: number[] = [];
  const slow: Array<{ line: number; column: number; char: string; kind: string; ms: number }> = [];
  // Each edit's [start, end] on CLOCK_MONOTONIC (µs), the clock of `node --cpu-prof`'s
  // samples: bench/profile.ts picks out the slowest edits' samples with them.
  const windows: Array<[number, number, number]> = [];
  const mono = () => Number(process.hrtime.bigint() / 1000n);
  const timed = (edit: { start: number; end: number; text: string }) => {
    const from = mono();
    const t = performance.now();
    doc.applyEdits([edit]);
    const ms = performance.now() - t;
    windows.push([from, mono(), ms]);
    return ms;
  };
  for (let i = 0; i < edits / 2; i++) {
    const e = pickEdit();
    const typed = timed({ start: e.offset, end: e.offset, text: e.char });
    const deleted = timed({ start: e.offset, end: e.offset + 1, text: '' });
    times.push(typed, deleted);
    slow.push({ line: e.row + 1, column: e.column, char: e.char, kind: 'type', ms: typed });
    slow.push({ line: e.row + 1, column: e.column, char: e.char, kind: 'delete', ms: deleted });
  }
  if (doc.content !== original) throw new Error('the edits did not restore the document');
  const after = doc.analysis.accesses.length;
  doc.dispose();
  process.stdout.write(
    JSON.stringify({
      file,
      lines: lines.length,
      accesses,
      accessesAfter: after,
      openMs,
      fullAnalysisMs: summary(full).p50,
      ...summary(times),
      slowest: slow.sort((a, b) => b.ms - a.ms).slice(0, 8),
      windows,
    }) + '\n',
  );
}

void main();
