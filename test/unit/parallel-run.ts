// Entry bundled by parallel.test.ts: indexes the paths it is given with the two-thread
// path (a worker thread runs this same bundle, as it runs dist/cli.js) and prints the
// index's results as JSON. `early` starts the analysis thread before the walk.
import { isMainThread } from 'node:worker_threads';
import { indexInParallel, prestartAnalysis } from '../../server/src/cli/parallel';
import { completeIndex } from '../../server/src/engine/workspace/cache/run';
import { collectFiles } from '../../server/src/engine/workspace/files';
import { WorkspaceIndex } from '../../server/src/engine/workspace/index';

async function main(mode: string, maxBytes: number, paths: string[]): Promise<void> {
  if (mode === 'early') prestartAnalysis(process.cwd(), maxBytes);
  // A thread started for another limit must not be the one used.
  if (mode === 'mismatch') prestartAnalysis(process.cwd(), 10);
  const files = collectFiles(paths).files;
  const index = new WorkspaceIndex({ root: process.cwd(), maxBytes });
  const refreshed = await indexInParallel(index, files, process.cwd(), maxBytes);
  // As the CLI does: this thread loads the grammars only when the passes after indexing have a file to read.
  await completeIndex(index, files, null, refreshed);
  process.stdout.write(JSON.stringify(index.results()));
}

if (isMainThread) {
  const [mode, maxBytes, ...paths] = process.argv.slice(2);
  void main(mode, Number(maxBytes), paths);
}
