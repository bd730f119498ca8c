// Row (c), the naive way: tree-sitter-parse every collected file, with no pre-scan.
// Same walk and the same reading as the CLI; every file is parsed (no time budget to
// speak of) and its tree freed. Nothing is extracted: this is a lower bound on the
// naive approach. Prints one JSON line of counts and phase times.
import * as fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { SourceLanguage } from '../server/src/engine/model';
import { initParsers, languageForFile, parse } from '../server/src/engine/syntax/parser';
import { collectFiles } from '../server/src/engine/workspace/files';

async function main(paths: string[]): Promise<void> {
  const t0 = performance.now();
  const list = collectFiles(paths);
  await initParsers();
  const t1 = performance.now();
  let bytes = 0;
  let withErrors = 0;
  let parseMs = 0;
  let slowest = { file: '', ms: 0 };
  const decoder = new TextDecoder('utf-8');
  for (const file of list.files) {
    const text = decoder.decode(fs.readFileSync(file));
    bytes += text.length;
    const p0 = performance.now();
    const tree = parse(languageForFile(file) as SourceLanguage, text, 600_000);
    const ms = performance.now() - p0;
    parseMs += ms;
    if (ms > slowest.ms) slowest = { file, ms };
    if (tree.rootNode.hasError) withErrors++;
    tree.delete();
  }
  const t2 = performance.now();
  process.stdout.write(
    JSON.stringify({
      files: list.files.length,
      bytes,
      withErrors,
      initMs: t1 - t0,
      parseMs,
      slowest,
      totalMs: t2 - t0,
    }) + '\n',
  );
}

void main(process.argv.slice(2));
