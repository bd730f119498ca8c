// Row (b), the floor: what any checker must do before analysing anything. Walks the
// same files as `shardlens check` (collectFiles: same skipped folders, same .gitignore
// handling), reads each as the CLI does (readSource: stat, read, binary check, UTF-8
// decode) and runs the literal pre-scan (reasonToSkip + mayContainDynamoDbCalls).
// Nothing is parsed. Prints one JSON line of counts and phase times.
import { performance } from 'node:perf_hooks';
import { mayContainDynamoDbCalls, reasonToSkip } from '../server/src/engine/syntax/prescan';
import { collectFiles } from '../server/src/engine/workspace/files';
import { readSource } from '../server/src/engine/workspace/source';

/** The CLI's default --max-file-size (2048 KB). */
const MAX_BYTES = 2048 * 1024;

function main(paths: string[]): void {
  const t0 = performance.now();
  const list = collectFiles(paths);
  const t1 = performance.now();
  let bytes = 0;
  let skipped = 0;
  let positives = 0;
  let readMs = 0;
  let scanMs = 0;
  for (const file of list.files) {
    const r0 = performance.now();
    const source = readSource(file, MAX_BYTES);
    if ('skipped' in source) {
      skipped++;
      continue;
    }
    const text = source.text;
    const r1 = performance.now();
    bytes += text.length;
    if (reasonToSkip(text, MAX_BYTES)) skipped++;
    else if (mayContainDynamoDbCalls(text)) positives++;
    const r2 = performance.now();
    readMs += r1 - r0;
    scanMs += r2 - r1;
  }
  const t2 = performance.now();
  process.stdout.write(
    JSON.stringify({
      files: list.files.length,
      bytes,
      skipped,
      prescanPositives: positives,
      gitignored: list.gitignored,
      walkMs: t1 - t0,
      readMs,
      prescanMs: scanMs,
      totalMs: t2 - t0,
    }) + '\n',
  );
}

main(process.argv.slice(2));
