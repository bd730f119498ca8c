// Time to compute the quick fixes of each finding in the ~3,000-line file, cold (the
// first request for each finding, as an editor's first light bulb on it): p50/p99.
// Then why no shard fix applies (`blockedFixes`), each finding on a fresh per-generation
// context (`stable`), as the first hover after an edit works it out: p90/p99 (most
// findings are no hot write and cost nothing), and the whole file's findings on one.
// Usage: node --import tsx bench/fix-actions.ts [workspace] [file]
import * as path from 'node:path';
import { initParsers } from '../server/src/engine/syntax/parser';
import { WorkspaceIndex } from '../server/src/engine/workspace/index';
import { collectFiles } from '../server/src/engine/workspace/files';
import { fixContextOf } from '../server/src/features/fixes/context';
import { allFixes, blockedFixes } from '../server/src/features/fixes/index';

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
  const blocked: number[] = [];
  const wholeFile: number[] = [];
  for (let round = 0; round < 3; round++) {
    for (const f of findings) {
      const fresh = fixContextOf(index, { stable: true });
      const t = performance.now();
      blockedFixes(f, fresh);
      blocked.push(performance.now() - t);
    }
    const one = fixContextOf(index, { stable: true });
    const t = performance.now();
    for (const f of findings) blockedFixes(f, one);
    wholeFile.push(performance.now() - t);
  }
  const q = (xs: number[], p: number) => {
    const s = [...xs].sort((a, b) => a - b);
    return +s[Math.min(s.length - 1, Math.floor(p * s.length))].toFixed(2);
  };
  console.log(
    JSON.stringify({
      findings: findings.length,
      actions,
      p50: q(times, 0.5),
      p99: q(times, 0.99),
      max: q(times, 1),
      blockedFirst: { p90: q(blocked, 0.9), p99: q(blocked, 0.99), max: q(blocked, 1) },
      blockedWholeFile: q(wholeFile, 0.5),
    }),
  );
}
void main();
