// Time to compute the quick fixes of each finding in the ~3,000-line file, cold (the
// first request for each finding, as an editor's first light bulb on it): p50/p99.
// Usage: node --import tsx bench/fix-actions.ts [workspace] [file]
import * as path from 'node:path';
import { initParsers } from '../server/src/engine/syntax/parser';
import { WorkspaceIndex } from '../server/src/engine/workspace/index';
import { collectFiles } from '../server/src/engine/workspace/files';
import { fixContextOf } from '../server/src/features/fixes/context';
import { allFixes } from '../server/src/features/fixes/index';

async function main(): Promise<void> {
  const root = path.resolve(process.argv[2] ?? 'bench/workspace');
  const file = path.join(root, process.argv[3] ?? 'services/ledger/src/ledger-store.ts');
  await initParsers();
  const index = new WorkspaceIndex({ root });
  for (const f of collectFiles([root]).files) index.analyzeFile(f, false);
  const findings = index.findingsFor(file);
  const ctx = fixContextOf(index, { shards: { defaultCount: 10, peakWriteUnits: 0 } });
  const times: number[] = [];
  let actions = 0;
  for (const f of findings) {
    const t = performance.now();
    actions += allFixes(f, ctx).length;
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const q = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))];
  console.log(
    JSON.stringify({
      findings: findings.length,
      actions,
      p50: +q(0.5).toFixed(2),
      p99: +q(0.99).toFixed(2),
      max: +times[times.length - 1].toFixed(2),
    }),
  );
}
void main();
