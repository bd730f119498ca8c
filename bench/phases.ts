// Where row (a)'s time goes, file by file, in one thread (no worker): for every file that
// passes the pre-scan, its size, parse time, analysis time (extraction, model, rules) and
// whether it holds any access. Prints a summary and the heaviest files.
//
//   node --import tsx bench/phases.ts [bench/workspace] [--top 15]
import { performance } from 'node:perf_hooks';
import { analyzeTree } from '../server/src/engine/analyze';
import { initParsers, languageForFile, parse } from '../server/src/engine/syntax/parser';
import { mayContainDynamoDbCalls, reasonToSkip } from '../server/src/engine/syntax/prescan';
import { collectFiles } from '../server/src/engine/workspace/files';
import { ModuleConstants } from '../server/src/engine/workspace/modules';
import { readSource } from '../server/src/engine/workspace/source';

const MAX_BYTES = 2048 * 1024;
const argv = process.argv.slice(2);
const root = argv.find((a) => !a.startsWith('--')) ?? 'bench/workspace';
const top = argv.includes('--top') ? Number(argv[argv.indexOf('--top') + 1]) : 15;

interface Row {
  file: string;
  bytes: number;
  parseMs: number;
  analyzeMs: number;
  accesses: number;
}

async function main(): Promise<void> {
  const t0 = performance.now();
  await initParsers();
  const initMs = performance.now() - t0;
  const modules = new ModuleConstants(process.cwd());
  const list = collectFiles([root]);
  const rows: Row[] = [];
  let readMs = 0;
  let scanMs = 0;
  for (const file of list.files) {
    const language = languageForFile(file);
    if (!language) continue;
    const r0 = performance.now();
    const source = readSource(file, MAX_BYTES);
    const r1 = performance.now();
    readMs += r1 - r0;
    if (!('text' in source)) continue;
    const pass = !reasonToSkip(source.text, MAX_BYTES) && mayContainDynamoDbCalls(source.text);
    scanMs += performance.now() - r1;
    if (!pass) continue;
    const p0 = performance.now();
    const tree = parse(language, source.text, 600_000);
    const p1 = performance.now();
    const a = analyzeTree(tree, file, language, source.text, {
      maxBytes: MAX_BYTES,
      resolveImport: modules.resolve,
    });
    const p2 = performance.now();
    tree.delete();
    rows.push({ file, bytes: source.text.length, parseMs: p1 - p0, analyzeMs: p2 - p1, accesses: a.accesses.length });
  }
  const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0);
  const none = rows.filter((r) => r.accesses === 0);
  const f = (x: number) => x.toFixed(1);
  console.log(`files ${list.files.length}; grammars ${f(initMs)} ms; read ${f(readMs)} ms; pre-scan ${f(scanMs)} ms`);
  console.log(
    `pass the pre-scan: ${rows.length} files, ${f(sum(rows.map((r) => r.bytes)) / 1024)} KB; ` +
      `parse ${f(sum(rows.map((r) => r.parseMs)))} ms, analysis ${f(sum(rows.map((r) => r.analyzeMs)))} ms`,
  );
  console.log(
    `  of them without any access: ${none.length} files, ${f(sum(none.map((r) => r.bytes)) / 1024)} KB; ` +
      `parse ${f(sum(none.map((r) => r.parseMs)))} ms, analysis ${f(sum(none.map((r) => r.analyzeMs)))} ms`,
  );
  console.log('\nheaviest (parse + analysis):');
  for (const r of [...rows].sort((a, b) => b.parseMs + b.analyzeMs - a.parseMs - a.analyzeMs).slice(0, top))
    console.log(
      `  ${r.file}  ${f(r.bytes / 1024)} KB  parse ${f(r.parseMs)}  analysis ${f(r.analyzeMs)}  accesses ${r.accesses}`,
    );
  console.log('\nwithout accesses:');
  for (const r of none)
    console.log(`  ${r.file}  ${f(r.bytes / 1024)} KB  parse ${f(r.parseMs)} analysis ${f(r.analyzeMs)}`);
}

void main();
